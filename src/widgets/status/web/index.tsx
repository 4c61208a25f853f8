import { Trans, useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocale } from "../../../web/i18n/use-locale";
import type { StatusTargetResult } from "../../../web/lib/data-api";
import { type InstanceSettings, useInstanceSettings } from "../../../web/lib/instance-settings-api";
import { useIsAdmin } from "../../../web/lib/operators-queries";
import { useNow } from "../../../web/lib/use-now";
import { Icon, type IconName } from "../../../web/ui/icons";
import { DataFrame } from "../../../web/widget-kit/data/DataFrame";
import { relativeTime } from "../../../web/widget-kit/data/format";
import { statusRequest, useDataSource } from "../../../web/widget-kit/data/source";
import { useWidgetData } from "../../../web/widget-kit/data/useWidgetData";
import { alertFlagSetting } from "../../../web/widget-kit/settings/AlertOption";
import { defineWidget, type WidgetProps } from "../../../web/widget-kit/types";
import { WidgetEmpty } from "../../../web/widget-kit/WidgetEmpty";
import { statusWidget as contract, type StatusConfig } from "../contract";
import { downReason, formatLatency, type Health, healthLabel, healthOf, rowsOf } from "./logic";
import { StatusTargetsSettings } from "./Settings";

/** The server checks on its own schedule; the page only reads what it recorded. */
const REFRESH_MS = 30_000;

const HEALTH_ICONS: Record<Health, IconName> = {
  up: "check",
  down: "x",
  unknown: "clock",
  "not-allowed": "shield",
};

function TargetRow({ target, now }: { target: StatusTargetResult; now: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { state } = target;
  const health = healthOf(state);
  const reason = state ? downReason(state) : null;
  const latency = state?.up ? formatLatency(state.latencyMs, locale) : null;
  const since = state ? Date.parse(state.changedAt) : null;
  return (
    <li className={`status-target is-${health}`}>
      {/* The word is shown next to the icon, so the colour is never the only sign. */}
      <span className="status-badge">
        <Icon name={HEALTH_ICONS[health]} size={13} />
        {healthLabel(health)}
      </span>
      <span className="status-name" title={target.url}>
        {target.name}
      </span>
      <span className="status-meta">
        {state ? [reason, latency].filter(Boolean).join(" · ") : t("widgets.status.notChecked")}
        {since !== null && (
          <>
            {reason || latency ? " · " : ""}
            <time
              dateTime={state!.changedAt}
              title={t("widgets.status.checkedAt", {
                time: new Date(state!.checkedAt).toLocaleString(locale),
              })}
            >
              {t("widgets.status.since", { ago: relativeTime(since, now) })}
            </time>
          </>
        )}
      </span>
    </li>
  );
}

const EXAMPLE = "nas.lan, 192.168.1.0/24";

/** Where an admin allows the address (the admin page, or the server's environment when it sets the list). */
function AdminHint({ settings }: { settings: InstanceSettings["privateNetworks"] }) {
  if (!settings.editable)
    return (
      <Trans
        i18nKey="widgets.status.privateHintEnvironment"
        values={{ setting: settings.variable, example: EXAMPLE }}
        components={{ code: <code /> }}
      />
    );
  return (
    <Trans
      i18nKey="widgets.status.privateHintAdmin"
      values={{ example: EXAMPLE }}
      components={{ code: <code />, settings: <Link to="/admin#admin-private-networks" /> }}
    />
  );
}

/**
 * Why a private address is not checked, and who can change that: above the list, where it is seen
 * however many addresses there are. An admin is told where, once the settings say which place it is.
 */
function PrivateHint() {
  const { t } = useTranslation();
  const admin = useIsAdmin();
  const query = useInstanceSettings(admin);
  if (admin && query.isPending) return null;
  const settings = query.data?.privateNetworks;
  return (
    <p className="status-hint" role="note">
      <Icon name="shield" size={13} />{" "}
      {settings ? <AdminHint settings={settings} /> : t("widgets.status.privateHint")}
    </p>
  );
}

function StatusWidget({ widget, config, openSettings, readOnly }: WidgetProps<StatusConfig>) {
  const { t } = useTranslation();
  const source = useDataSource();
  const now = useNow(30_000).getTime();
  const query = useWidgetData({
    ...statusRequest(source, widget.id, config.checks),
    refreshMs: REFRESH_MS,
    refetchOnFocus: true,
    enabled: config.checks.length > 0,
  });
  if (config.checks.length === 0) {
    return (
      <WidgetEmpty
        icon="monitor"
        text={readOnly ? t("widgets.status.emptyReadOnly") : t("widgets.status.empty")}
        action={readOnly ? undefined : { label: t("widgets.status.addAddresses"), onClick: openSettings }}
      />
    );
  }
  return (
    <DataFrame query={query} upstream="status" label={t("widgets.status.dataLabel")} readOnly={readOnly}>
      {(answer) => {
        const checks = rowsOf(config.checks, answer);
        const refused = checks.some((t) => healthOf(t.state) === "not-allowed");
        return (
          <div className="status">
            {refused && !readOnly && <PrivateHint />}
            <ul className="status-checks">
              {checks.map((target) => (
                <TargetRow key={target.id} target={target} now={now} />
              ))}
            </ul>
          </div>
        );
      }}
    </DataFrame>
  );
}

/** The picker's sample services: names and a status code, the same in every language. */
const SAMPLE_UP = "Jellyfin";
const SAMPLE_DOWN = "Backup NAS · HTTP 502";

function StatusPreview() {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <div className="preview preview-status">
      <span className="status-badge is-up">
        <Icon name="check" size={12} /> {t("widgets.status.health.up")}
      </span>
      <span>
        {SAMPLE_UP} · {formatLatency(42, locale)}
      </span>
      <span className="status-badge is-down">
        <Icon name="x" size={12} /> {t("widgets.status.health.down")}
      </span>
      <span>{SAMPLE_DOWN}</span>
    </div>
  );
}

export default defineWidget(contract, {
  group: "data",
  words: (t) => ({ name: t("widgets.status.name"), description: t("widgets.status.description") }),
  keywords: ["uptime", "monitor", "health", "ping", "homelab", "http", "services"],
  icon: "monitor",
  defaultSize: { columns: 6, rows: 14 },
  minSize: { columns: 3, rows: 6 },
  Component: StatusWidget,
  settings: [
    StatusTargetsSettings,
    // The server's watch pass sends a notification when an address goes down or comes back.
    alertFlagSetting<StatusConfig>(
      "notify",
      (t) => t("widgets.status.settings.notify"),
      (config, t) => (config.checks.length > 0 ? null : t("widgets.status.settings.notifyNeedsAddress")),
    ),
  ],
  Preview: StatusPreview,
});
