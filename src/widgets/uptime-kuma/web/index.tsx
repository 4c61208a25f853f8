import { useTranslation } from "react-i18next";
import { useLocale } from "../../../web/i18n/use-locale";
import { useNow } from "../../../web/lib/use-now";
import { Icon } from "../../../web/ui/icons";
import { relativeTime } from "../../../web/widget-kit/data/format";
import { IntegrationFrame } from "../../../web/widget-kit/data/IntegrationFrame";
import { useIntegrationData } from "../../../web/widget-kit/data/integration-data";
import { defineWidget, type WidgetProps } from "../../../web/widget-kit/types";
import {
  uptimeKumaWidget as contract,
  KUMA_REFRESH_MS,
  type KumaMonitor,
  type KumaStatus,
  type UptimeKumaConfig,
  type UptimeKumaData,
} from "../contract";
import { countWords, describeKumaError, groupsOf, responseTime, statusWord, uptimeShare } from "./logic";
import { UptimeKumaSettings } from "./Settings";
import "./uptime-kuma.css";

/** The summary names these when there are any; up and down always. */
const SUMMARY_ORDER: readonly KumaStatus[] = ["up", "down", "pending", "maintenance", "unknown"];

function Summary({ summary }: { summary: UptimeKumaData["summary"] }) {
  const counts = SUMMARY_ORDER.filter((s) => s === "up" || s === "down" || summary[s] > 0);
  return (
    <p className="kuma-summary">
      {counts.map((status) => (
        <span key={status} className={`kuma-count is-${status}`}>
          <span className="kuma-dot" aria-hidden="true" />
          {countWords(status, summary[status])}
        </span>
      ))}
    </p>
  );
}

function MonitorRow({ monitor, now }: { monitor: KumaMonitor; now: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const beat = monitor.lastBeatAt ? Date.parse(monitor.lastBeatAt) : null;
  const facts = [responseTime(monitor.responseTimeMs, locale), uptimeShare(monitor.uptime24h, locale)].filter(
    Boolean,
  );
  return (
    <li className={`kuma-monitor is-${monitor.status}`}>
      <span className="kuma-dot" aria-hidden="true" />
      <span className="kuma-name">{monitor.name}</span>
      <span className="kuma-meta">
        {/* The dot's colour helps; this word says it. */}
        <strong className="kuma-status">{statusWord(monitor.status)}</strong>
        {facts.map((fact) => ` · ${fact}`).join("")}
        {beat !== null && monitor.lastBeatAt && (
          <>
            {" · "}
            <time dateTime={monitor.lastBeatAt} title={new Date(beat).toLocaleString(locale)}>
              {t("widgets.uptimeKuma.lastBeat", { ago: relativeTime(beat, now) })}
            </time>
          </>
        )}
      </span>
    </li>
  );
}

function Monitors({ data }: { data: UptimeKumaData }) {
  const { t } = useTranslation();
  const now = useNow(30_000).getTime();
  const more = data.monitorsTotal - data.monitors.length;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: its own scroll region, so the keyboard reaches monitors past the card's height (WCAG 2.1.1), as a viewer has no control inside to tab to.
    <section className="kuma" tabIndex={0} aria-label={t("widgets.uptimeKuma.listLabel")}>
      <Summary summary={data.summary} />
      {data.incidents.map((incident, i) => (
        // Incidents have no id in the public answer; their order is Kuma's (newest first).
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <div key={i} className={`kuma-incident is-${incident.style}`} role="note">
          <Icon name="alert" size={14} />
          <div>
            <strong>{incident.title || t("widgets.uptimeKuma.incident")}</strong>
            {incident.content && <p>{incident.content}</p>}
          </div>
        </div>
      ))}
      {data.maintenance.length > 0 && (
        <p className="kuma-maintenance">
          <Icon name="clock" size={13} />{" "}
          {t("widgets.uptimeKuma.maintenanceNow", {
            titles: data.maintenance.map((m) => m.title).join(", "),
          })}
        </p>
      )}
      {data.monitors.length === 0 ? (
        <p className="muted kuma-none">{t("widgets.uptimeKuma.noMonitors")}</p>
      ) : (
        groupsOf(data.monitors).map((group, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: group names may repeat; their order is the page's
          <section key={i} className="kuma-group" aria-label={group.name ?? undefined}>
            {group.name && <h3 className="kuma-group-name">{group.name}</h3>}
            <ul className="kuma-monitors">
              {group.monitors.map((monitor) => (
                <MonitorRow key={monitor.id} monitor={monitor} now={now} />
              ))}
            </ul>
          </section>
        ))
      )}
      {more > 0 && <p className="kuma-more">{t("widgets.uptimeKuma.more", { count: more })}</p>}
    </section>
  );
}

function UptimeKumaWidget({ widget, config, readOnly, openSettings }: WidgetProps<UptimeKumaConfig>) {
  const { t } = useTranslation();
  const data = useIntegrationData<UptimeKumaData>({
    widget,
    asks: contract.data.visitorQuery(config),
    name: "uptime-kuma",
    refreshMs: KUMA_REFRESH_MS,
  });
  return (
    <IntegrationFrame
      data={data}
      readOnly={readOnly}
      openSettings={openSettings}
      empty={{
        icon: "monitor",
        text: t("widgets.uptimeKuma.empty"),
        readOnlyText: t("widgets.uptimeKuma.emptyReadOnly"),
        setUp: t("widgets.uptimeKuma.setUp"),
      }}
      errorTitle={t("widgets.uptimeKuma.couldNotLoad")}
      describeError={describeKumaError}
      label={t("widgets.uptimeKuma.dataLabel")}
      upstream={{ service: "Uptime Kuma" }}
    >
      {(monitors) => <Monitors data={monitors} />}
    </IntegrationFrame>
  );
}

/** The picker's sample monitors: names and a time, the same in every language. */
const SAMPLE_UP = "Jellyfin · 42 ms";
const SAMPLE_DOWN = "NAS";

function UptimeKumaPreview() {
  const { t } = useTranslation();
  return (
    <div className="preview preview-kuma" aria-hidden="true">
      <span className="kuma-count is-up">
        <span className="kuma-dot" /> {t("widgets.uptimeKuma.status.up")}
      </span>
      <span>{SAMPLE_UP}</span>
      <span className="kuma-count is-down">
        <span className="kuma-dot" /> {t("widgets.uptimeKuma.status.down")}
      </span>
      <span>{SAMPLE_DOWN}</span>
    </div>
  );
}

export default defineWidget(contract, {
  group: "data",
  words: (t) => ({ name: t("widgets.uptimeKuma.name"), description: t("widgets.uptimeKuma.description") }),
  keywords: ["uptime kuma", "uptime", "monitor", "status page", "health", "homelab"],
  icon: "monitor",
  defaultSize: { columns: 6, rows: 24 },
  minSize: { columns: 3, rows: 6 },
  Component: UptimeKumaWidget,
  settings: [UptimeKumaSettings],
  Preview: UptimeKumaPreview,
});
