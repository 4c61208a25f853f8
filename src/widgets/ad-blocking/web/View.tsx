import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocale } from "../../../web/i18n/use-locale";
import { Icon } from "../../../web/ui/icons";
import { useToasts } from "../../../web/ui/Toasts";
import { formatNumber, type TimeOptions } from "../../../web/widget-kit/data/format";
import { IntegrationFrame } from "../../../web/widget-kit/data/IntegrationFrame";
import { type IntegrationEnvelope, useIntegrationData } from "../../../web/widget-kit/data/integration-data";
import type { WidgetProps } from "../../../web/widget-kit/types";
import {
  type AdBlockingConfig,
  type AdBlockingData,
  adBlockingWidget as contract,
  PAUSE_MINUTES,
  type PauseMinutes,
} from "../contract";
import { pauseBlocking, resumeBlocking } from "./api";
import "./ad-blocking.css";
import { canResume, describeAdBlockingError, KIND_LABELS, shareWords, stateWords } from "./logic";

const DEFAULT_PAUSE: PauseMinutes = 5;
/** Names the service before its first answer says which one it is (brand names: not translated). */
const ANY_BLOCKER = "Pi-hole / AdGuard Home";
/** A timer's longest wait (about 24.8 days); a pause is at most an hour, this only guards. */
const TIMER_MAX_MS = 2 ** 31 - 1;

/**
 * Pause (with its length) while blocking is on, Resume while it is off or paused: the state
 * shown afterwards is the service's answer, not a guess.
 */
function BlockingControls({
  widgetId,
  data,
  queryKey,
}: {
  widgetId: string;
  data: AdBlockingData;
  queryKey: QueryKey;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const toasts = useToasts();
  const [minutes, setMinutes] = useState<PauseMinutes>(DEFAULT_PAUSE);
  const change = useMutation({
    mutationFn: (what: PauseMinutes | "resume") =>
      what === "resume" ? resumeBlocking(widgetId) : pauseBlocking(widgetId, what),
    onSuccess: ({ result }) => {
      client.setQueryData<IntegrationEnvelope<AdBlockingData>>(queryKey, (old) =>
        old ? { ...old, data: { ...old.data, blocking: result } } : old,
      );
      void client.invalidateQueries({ queryKey });
    },
    onError: (error, what) => {
      const reason = describeAdBlockingError(error).message;
      toasts.show({
        tone: "error",
        key: `ad-blocking-${widgetId}`,
        message:
          what === "resume"
            ? t("widgets.adBlocking.resumeFailed", { reason })
            : t("widgets.adBlocking.pauseFailed", { reason }),
      });
    },
  });
  const busy = change.isPending;
  if (canResume(data.blocking))
    return (
      <div className="adb-actions">
        <button
          type="button"
          className="button small primary"
          disabled={busy}
          aria-busy={busy || undefined}
          onClick={() => change.mutate("resume")}
        >
          {t("widgets.adBlocking.resume")}
        </button>
      </div>
    );
  return (
    <div className="adb-actions">
      <select
        className="adb-minutes"
        aria-label={t("widgets.adBlocking.pauseFor")}
        value={minutes}
        disabled={busy}
        onChange={(e) => setMinutes(Number(e.target.value) as PauseMinutes)}
      >
        {PAUSE_MINUTES.map((m) => (
          <option key={m} value={m}>
            {t("widgets.adBlocking.minutes", { count: m })}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="button small"
        disabled={busy}
        aria-busy={busy || undefined}
        onClick={() => change.mutate(minutes)}
      >
        {t("widgets.adBlocking.pause")}
      </button>
    </div>
  );
}

function Blocker({
  widgetId,
  data,
  queryKey,
  readOnly,
  time,
  refetch,
}: {
  widgetId: string;
  data: AdBlockingData;
  queryKey: QueryKey;
  readOnly: boolean;
  time: TimeOptions;
  refetch(): unknown;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { blocking } = data;
  // The service turns blocking back on when a pause ends: ask then, not at the next refresh.
  useEffect(() => {
    if (!blocking.pausedUntil) return;
    const wait = Date.parse(blocking.pausedUntil) - Date.now() + 1000;
    if (!(wait > 0)) return;
    const timer = setTimeout(refetch, Math.min(wait, TIMER_MAX_MS));
    return () => clearTimeout(timer);
  }, [blocking.pausedUntil, refetch]);
  const controllable = blocking.state === "enabled" || canResume(blocking);
  const regionLabel = t("widgets.adBlocking.regionLabel");
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: its own scroll region when the card is small, so the keyboard reaches what is past its height (WCAG 2.1.1), as a viewer has no control inside to tab to.
    <section className={`adb is-${blocking.state}`} tabIndex={0} aria-label={regionLabel}>
      <p className="adb-state" role="status">
        <span className="adb-dot" aria-hidden="true" />
        <strong className="adb-state-words">{stateWords(blocking, time, locale)}</strong>
        <span className="adb-kind">{KIND_LABELS[data.kind]}</span>
      </p>
      <dl className="adb-stats">
        <div className="adb-stat">
          <dt>{t("widgets.adBlocking.queries")}</dt>
          <dd>{formatNumber(data.queries, locale)}</dd>
        </div>
        <div className="adb-stat">
          <dt>{t("widgets.adBlocking.blocked")}</dt>
          <dd>{formatNumber(data.blocked, locale)}</dd>
        </div>
        <div className="adb-stat">
          <dt>{t("widgets.adBlocking.share")}</dt>
          <dd>{shareWords(data.blockedShare, locale)}</dd>
        </div>
      </dl>
      <div className="adb-bar" aria-hidden="true">
        <span style={{ width: `${Math.round(data.blockedShare * 1000) / 10}%` }} />
      </div>
      <p className="adb-window">{t("widgets.adBlocking.window", { count: data.windowHours })}</p>
      {!readOnly &&
        controllable &&
        (data.actions ? (
          <BlockingControls widgetId={widgetId} data={data} queryKey={queryKey} />
        ) : (
          <p className="adb-hint" role="note">
            <Icon name="shield" size={13} /> {t("widgets.adBlocking.actionsOffHint")}
          </p>
        ))}
    </section>
  );
}

/** The Ad Blocking widget's face (loaded when first drawn): the numbers, the state, the pause. */
export default function AdBlockingView({
  widget,
  config,
  readOnly,
  openSettings,
  settings,
}: WidgetProps<AdBlockingConfig>) {
  const { t } = useTranslation();
  const data = useIntegrationData<AdBlockingData>({
    widget,
    asks: contract.data.visitorQuery(config),
    name: "ad-blocking",
    refreshMs: config.refreshSeconds * 1000,
  });
  const { refetch } = data.query;
  const answer = data.query.data?.data;
  return (
    <IntegrationFrame
      data={data}
      readOnly={readOnly}
      openSettings={openSettings}
      empty={{
        icon: "shield",
        text: t("widgets.adBlocking.empty"),
        readOnlyText: t("widgets.adBlocking.emptyReadOnly"),
        setUp: t("widgets.adBlocking.setUp"),
      }}
      errorTitle={t("widgets.adBlocking.couldNotLoad")}
      describeError={describeAdBlockingError}
      label={t("widgets.adBlocking.dataLabel")}
      upstream={{ service: answer ? KIND_LABELS[answer.kind] : ANY_BLOCKER }}
    >
      {(shown) => (
        <Blocker
          widgetId={widget.id}
          data={shown}
          queryKey={data.queryKey}
          readOnly={readOnly}
          time={{ timezone: settings.timezone, hourFormat: settings.hourFormat }}
          refetch={refetch}
        />
      )}
    </IntegrationFrame>
  );
}
