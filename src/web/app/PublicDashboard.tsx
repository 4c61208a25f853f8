import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import type { Widget } from "../../contract/resources";
import { cellBox, GridItem, useGridWidth, useResponsiveLayout } from "../grid/Grid";
import { bottom, compactUp, ROW_PX } from "../grid/geometry";
import { WidgetCard } from "../grid/WidgetCard";
import { ApiError } from "../lib/api";
import { type AppSettings, defaultAppSettings } from "../lib/app-settings";
import { dataApi, type PublicWidget } from "../lib/data-api";
import { lookAttributes } from "../lib/look";
import { Icon } from "../ui/icons";
import { QueryError, Skeleton } from "../ui/States";
import { type DataSource, DataSourceContext } from "../widget-kit/data/source";
import { definitionFor } from "../widget-kit/registry";
import { BrandLink } from "./Logo";

/** Visitors get the browser's zone and no reminders: nothing here may write on anyone's behalf. */
function visitorSettings(): AppSettings {
  return {
    ...defaultAppSettings(),
    countdownReminder: false,
    todoReminder: false,
    meetingReminder: false,
    mailReminder: false,
  };
}

function ReadOnlyGrid({ dashboardId, widgets }: { dashboardId: string; widgets: PublicWidget[] }) {
  const ref = useRef<HTMLDivElement>(null);
  const width = useGridWidth(ref);
  const settings = useMemo(visitorSettings, []);
  // No session here: data widgets read their published data through the public endpoints.
  const source = useMemo<DataSource>(() => ({ kind: "public", dashboardId }), [dashboardId]);
  // Widgets that read the owner's accounts never come from the server; this is a second lock.
  // The components expect a stored widget; the public one lacks only owner and timestamps.
  const shown = useMemo(
    () => widgets.filter((w) => !definitionFor(w.widgetType).provider) as unknown as Widget[],
    [widgets],
  );
  const { spec, layout, columnWidth } = useResponsiveLayout(shown, width);
  // The owner's private widgets are left out; the others close up the holes they leave.
  const cells = useMemo(() => compactUp(layout), [layout]);
  const height = (bottom(cells.values()) + 1) * ROW_PX;
  return (
    <DataSourceContext.Provider value={source}>
      <div ref={ref} className="grid-wrap" data-breakpoint={spec.name} data-columns={spec.columns}>
        {width > 0 && (
          <div className="grid-canvas" style={{ height }}>
            {shown.map((widget) => {
              const cell = cells.get(widget.id)!;
              return (
                <GridItem key={widget.id} cell={cell} box={cellBox(cell, columnWidth)}>
                  {/* Each widget draws its read-only view: no inputs, no editing controls. */}
                  <WidgetCard widget={widget} mode="public" settings={settings} />
                </GridItem>
              );
            })}
          </div>
        )}
      </div>
    </DataSourceContext.Provider>
  );
}

/** /p/<id>: a dashboard its owner published, for anyone, with no session and no editing. */
export default function PublicDashboardPage() {
  const { t } = useTranslation();
  const { dashboardId = "" } = useParams();
  const query = useQuery({
    queryKey: ["public-dashboard", dashboardId],
    queryFn: () => dataApi.publicDashboard(dashboardId),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    staleTime: 30_000,
  });
  const name = query.data?.name;
  useEffect(() => {
    document.title = name ? `${name} · Tessera` : "Tessera";
  }, [name]);

  const missing =
    query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
  return (
    <div className="app public-page">
      <header className="topbar">
        <BrandLink />
        <div className="topbar-spacer" />
        <Link to="/" className="button small">
          {t("public.open")}
        </Link>
      </header>
      <main className="workspace-main" id="main">
        {query.isPending ? (
          <div className="skeleton-grid" role="status" aria-busy="true" aria-label={t("common.loading")}>
            <Skeleton width={320} height={200} className="skeleton-card" />
            <Skeleton width={300} height={200} className="skeleton-card" />
            <Skeleton width={360} height={200} className="skeleton-card" />
          </div>
        ) : missing ? (
          <section className="empty-page">
            <h1>{t("public.notShared.title")}</h1>
            <p className="muted">{t("public.notShared.text")}</p>
          </section>
        ) : query.isError ? (
          <QueryError query={query} title={t("public.failed")} />
        ) : (
          <section
            className="dashboard"
            aria-labelledby="dashboard-title"
            {...lookAttributes(query.data.look)}
          >
            <div className="dashboard-toolbar">
              <h1 id="dashboard-title">{query.data.name}</h1>
              <span className="status-pill public-pill">
                <Icon name="eye" size={13} /> {t("public.readOnly")}
              </span>
            </div>
            {query.data.widgets.length === 0 ? (
              <p className="muted">{t("public.empty")}</p>
            ) : (
              <ReadOnlyGrid dashboardId={query.data.id} widgets={query.data.widgets} />
            )}
          </section>
        )}
      </main>
    </div>
  );
}
