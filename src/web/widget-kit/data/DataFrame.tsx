import type { ComponentProps, ReactNode } from "react";
import { Trans, useTranslation } from "react-i18next";
import { PROVIDER_LABELS, type Provider } from "../../../contract/providers";
import { useLocale } from "../../i18n/use-locale";
import { useNow } from "../../lib/use-now";
import { Icon } from "../../ui/icons";
import { ErrorState, Skeleton } from "../../ui/States";
import { WidgetEmpty } from "../WidgetEmpty";
import { describeDataError, type Upstream } from "./errors";
import { relativeTime } from "./format";
import { ConnectPrompt } from "./ProviderGate";
import { dataState, type WidgetData } from "./useWidgetData";

function DefaultSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="data-skeleton" role="status" aria-label={t("widgets.data.loading")}>
      <Skeleton height={18} width="55%" />
      <Skeleton height={14} width="90%" />
      <Skeleton height={14} width="75%" />
      <Skeleton height={14} width="85%" />
    </div>
  );
}

/** "Updated 3 min ago", the stale mark after a failed refresh, and the refresh button. */
export function DataStatus({
  query,
  label,
  upstream,
  stale,
  readOnly = false,
}: {
  query: WidgetData<unknown>;
  label: string;
  upstream: Upstream;
  /** Set when the latest refresh failed. */
  stale: { error: unknown } | null;
  /** A visitor's view: it refreshes by itself, with no button. */
  readOnly?: boolean;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const now = useNow(30_000);
  const ago = (time: Date) => relativeTime(time.getTime(), Math.max(now.getTime(), Date.now()));
  const updated = query.dataUpdatedAt ? new Date(query.dataUpdatedAt) : null;
  return (
    <footer className={`data-status${stale ? " is-stale" : ""}`}>
      {stale && (
        <span
          className="data-stale"
          role="status"
          title={t("widgets.data.refreshFailed", { reason: describeDataError(stale.error, upstream) })}
        >
          <Icon name="alert" size={12} /> {t("widgets.data.stale")}
        </span>
      )}
      {updated && (
        <time
          className="data-updated"
          dateTime={updated.toISOString()}
          title={t("widgets.data.updatedAt", { time: updated.toLocaleString(locale) })}
        >
          {stale
            ? t("widgets.data.updatedStale", { ago: ago(updated) })
            : t("widgets.data.updated", { ago: ago(updated) })}
        </time>
      )}
      {!readOnly && (
        <button
          type="button"
          className={`icon-button small data-refresh${query.isFetching ? " is-spinning" : ""}`}
          aria-label={t("widgets.data.refreshLabel", { label })}
          title={t("widgets.data.refresh")}
          disabled={query.isFetching}
          onClick={() => void query.refetch()}
        >
          <Icon name="refresh" size={14} />
        </button>
      )}
    </footer>
  );
}

/**
 * The frame every data widget draws its data in: a skeleton until the first answer, the error
 * (with retry) when there is nothing to show, the connect prompt when the account is missing,
 * what to say when the answer is an empty list, and below the data the status line. A failed
 * refresh keeps the last data on screen.
 */
export function DataFrame<T, U = T>({
  query,
  label,
  upstream,
  provider,
  purpose,
  skeleton,
  readOnly = false,
  select,
  empty,
  children,
}: {
  query: WidgetData<T>;
  /**
   * What the data is, translated, for "Refresh …", "Couldn't load …" and "… to see … here":
   * "prices", "the forecast" (German: an accusative with its article, "die Vorhersage").
   */
  label: string;
  /** Where the data comes from, to name it when it fails. */
  upstream: Upstream;
  provider?: Provider;
  /** A visitor's view: no refresh or retry buttons (it refreshes by itself). */
  readOnly?: boolean;
  /** Translated; completes "Link your Google account …". "to see this" when absent. */
  purpose?: string;
  skeleton?: ReactNode;
  /** What the children draw from the answer (the messages of every loaded page); the answer when absent. */
  select?: (data: T) => U;
  /** Said in the frame, in place of the children, when what they would draw is an empty list. */
  empty?: ComponentProps<typeof WidgetEmpty>;
  children: (data: U) => ReactNode;
}) {
  const { t } = useTranslation();
  const state = dataState(query);
  if ((state.kind === "connect" || state.kind === "reconnect") && provider) {
    return (
      <ConnectPrompt
        provider={provider}
        label={PROVIDER_LABELS[provider]}
        purpose={purpose ?? t("widgets.data.purpose")}
        reconnect={state.kind === "reconnect"}
      />
    );
  }
  if (state.kind === "signin") {
    return (
      <div className="connect-prompt is-muted">
        <Icon name="eye" size={22} className="connect-icon is-muted" />
        <strong>{t("widgets.data.signin.title")}</strong>
        <p>
          <Trans
            i18nKey="widgets.data.signin.text"
            values={{ label }}
            components={{ signin: <a href="/signin">Sign in</a> }}
          />
        </p>
      </div>
    );
  }
  if (state.kind === "loading") return <>{skeleton ?? <DefaultSkeleton />}</>;
  if (query.data === undefined) {
    return (
      <ErrorState
        error={state.kind === "error" ? state.error : undefined}
        message={state.kind === "error" ? describeDataError(state.error, upstream) : undefined}
        title={t("widgets.data.couldNotLoad", { label })}
        onRetry={readOnly ? undefined : () => void query.refetch()}
      />
    );
  }
  const shown = select ? select(query.data) : (query.data as unknown as U);
  return (
    <div className="data-frame">
      <div className="data-body">
        {empty && Array.isArray(shown) && shown.length === 0 ? <WidgetEmpty {...empty} /> : children(shown)}
      </div>
      <DataStatus
        query={query}
        label={label}
        upstream={upstream}
        readOnly={readOnly}
        stale={state.kind === "stale" ? { error: state.error } : null}
      />
    </div>
  );
}
