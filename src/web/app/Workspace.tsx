import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, Route, Routes, useLocation, useNavigate } from "react-router";
import { isProvider, PROVIDER_LABELS } from "../../contract/providers";
import type { Notification } from "../../contract/resources";
import { useAppLanguage } from "../i18n/use-app-language";
import type { SessionUser } from "../lib/api";
import { sortDashboards, useAppSettings, useDashboards, useSession, useSettings } from "../lib/queries";
import { useNotificationStream } from "../lib/realtime";
import { useTheme } from "../lib/theme";
import { WidgetStoreProvider } from "../lib/widget-store";
import { ErrorState, QueryError, Skeleton } from "../ui/States";
import { useToasts } from "../ui/Toasts";
import { type DashboardCommands, DashboardCommandsContext } from "./commands";
import { DashboardRoute } from "./DashboardView";
import { EmptyDashboards } from "./EmptyDashboards";
import { Header } from "./Header";
import { usePaletteShortcuts } from "./palette-shortcuts";

// Only admins open it, and seldom: it loads on first visit.
const AdminPage = lazy(() => import("../admin/AdminPage"));
// Not needed to show a dashboard: each loads when it is first shown.
const Onboarding = lazy(() => import("./Onboarding").then((m) => ({ default: m.Onboarding })));
const CommandPalette = lazy(() => import("./CommandPalette").then((m) => ({ default: m.CommandPalette })));
const ShortcutSheet = lazy(() => import("./CommandPalette").then((m) => ({ default: m.ShortcutSheet })));

/** Placeholder cards: key, width, height. */
const APP_SKELETON = [
  ["a", 320, 180],
  ["b", 300, 220],
  ["c", 300, 180],
  ["d", 360, 220],
] as const;

export function AppSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="app-skeleton" role="status" aria-busy="true" aria-label={t("common.loading")}>
      <div className="topbar">
        <Skeleton width={120} height={22} />
        <Skeleton width={160} height={30} />
      </div>
      <div className="skeleton-grid">
        {APP_SKELETON.map(([key, width, height]) => (
          <Skeleton key={key} width={width} height={height} className="skeleton-card" />
        ))}
      </div>
    </div>
  );
}

export function Workspace() {
  const { t } = useTranslation();
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <AppSkeleton />;
  if (session.isError)
    return (
      <main className="center-page">
        <QueryError query={session} title={t("dashboard.unreachable")} />
      </main>
    );
  if (!session.data) return <Navigate to="/signin" replace state={{ from: location.pathname }} />;
  return (
    <WidgetStoreProvider>
      <SignedIn user={session.data.user} />
    </WidgetStoreProvider>
  );
}

function OpenLastDashboard() {
  const { data: dashboards } = useDashboards();
  const { data: settings } = useSettings();
  const { search } = useLocation();
  const list = sortDashboards(dashboards);
  if (list.length === 0) return <EmptyDashboards />;
  const last = list.find((d) => d.id === settings?.lastDashboardId) ?? list[0]!;
  // A deep link such as /?settings=profile keeps its query on the way to the dashboard.
  return <Navigate to={{ pathname: `/d/${last.id}`, search }} replace />;
}

/** After connecting a provider the server sends the browser back with the outcome in the query. */
function useConnectOutcome() {
  const location = useLocation();
  const navigate = useNavigate();
  const toasts = useToasts();
  const { t } = useTranslation();
  // Said once per return from the provider: a re-render before the address is cleaned up (a
  // language or toast update) must not say it again.
  const handled = useRef<string | null>(null);
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const connected = params.get("connected");
    const failed = params.get("connect");
    if (!connected && !failed) return;
    if (handled.current === location.search) return;
    handled.current = location.search;
    if (isProvider(connected))
      toasts.show({
        tone: "success",
        message: t("settings.connections.connected", { provider: PROVIDER_LABELS[connected] }),
      });
    else if (isProvider(failed)) {
      const error = params.get("error");
      const provider = PROVIDER_LABELS[failed];
      toasts.show({
        tone: "error",
        message: error
          ? t("settings.connections.connectFailedCode", { provider, code: error })
          : t("settings.connections.connectFailed", { provider }),
      });
    }
    for (const key of ["connected", "connect", "error"]) params.delete(key);
    const search = params.toString();
    navigate({ pathname: location.pathname, search: search ? `?${search}` : "" }, { replace: true });
  }, [location.search, location.pathname, navigate, toasts, t]);
}

function SignedIn({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const settings = useSettings();
  const dashboards = useDashboards();
  const appSettings = useAppSettings();
  const toasts = useToasts();
  useTheme(appSettings.theme);
  useAppLanguage(appSettings.locale);

  const onNotification = useCallback(
    (n: Notification) =>
      toasts.show({
        tone: n.type === "message" ? "info" : n.type,
        message: n.message,
        duration: n.type === "message" ? 6000 : 10_000,
      }),
    [toasts],
  );
  useNotificationStream(true, onNotification);
  useConnectOutcome();
  const [overlay, setOverlay] = useState<"palette" | "shortcuts" | null>(null);
  const openPalette = useCallback(() => setOverlay("palette"), []);
  const openShortcuts = useCallback(() => setOverlay("shortcuts"), []);
  const closeOverlay = useCallback(() => setOverlay(null), []);
  usePaletteShortcuts(openPalette, openShortcuts);
  const dashboardCommands = useRef<DashboardCommands | null>(null);

  if (settings.isPending || dashboards.isPending) return <AppSkeleton />;
  if (settings.isError || dashboards.isError) {
    return (
      <main className="center-page">
        <ErrorState
          error={settings.error ?? dashboards.error}
          title={t("dashboard.listFailed")}
          onRetry={() => {
            void settings.refetch();
            void dashboards.refetch();
          }}
        />
      </main>
    );
  }

  return (
    <DashboardCommandsContext.Provider value={dashboardCommands}>
      <div className="app">
        <Header user={user} onOpenPalette={openPalette} />
        <main className="workspace-main" id="main" tabIndex={-1}>
          <Routes>
            <Route index element={<OpenLastDashboard />} />
            <Route path="d/:dashboardId" element={<DashboardRoute />} />
            <Route
              path="admin"
              element={
                <Suspense fallback={null}>
                  <AdminPage />
                </Suspense>
              }
            />
            <Route path="*" element={<Navigate to="/" replace />} />
          </Routes>
        </main>
        {/* One boundary each: one loading must not hide another that is open. */}
        <Suspense fallback={null}>
          {!settings.data.onboardingCompleted && <Onboarding user={user} />}
        </Suspense>
        <Suspense fallback={null}>
          {overlay === "palette" && <CommandPalette onClose={closeOverlay} onShortcuts={openShortcuts} />}
        </Suspense>
        <Suspense fallback={null}>
          {overlay === "shortcuts" && <ShortcutSheet onClose={closeOverlay} />}
        </Suspense>
      </div>
    </DashboardCommandsContext.Provider>
  );
}
