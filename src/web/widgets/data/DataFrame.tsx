import type { ReactNode } from "react";
import { PROVIDER_LABELS, type Provider } from "../../../contract/providers";
import { useNow } from "../../lib/use-now";
import { Icon } from "../../ui/icons";
import { ErrorState, Skeleton } from "../../ui/States";
import { describeDataError, type Upstream } from "./errors";
import { relativeTime } from "./format";
import { ConnectPrompt } from "./ProviderGate";
import { dataState, type WidgetData } from "./useWidgetData";

function DefaultSkeleton() {
  return (
    <div className="data-skeleton" role="status" aria-label="Loading">
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
  const now = useNow(30_000);
  const updated = query.dataUpdatedAt ? new Date(query.dataUpdatedAt) : null;
  return (
    <footer className={`data-status${stale ? " is-stale" : ""}`}>
      {stale && (
        <span
          className="data-stale"
          role="status"
          title={`Refresh failed: ${describeDataError(stale.error, upstream)}`}
        >
          <Icon name="alert" size={12} /> Stale
        </span>
      )}
      {updated && (
        <time
          className="data-updated"
          dateTime={updated.toISOString()}
          title={`Updated ${updated.toLocaleString()}`}
        >
          {stale ? "From " : "Updated "}
          {relativeTime(updated.getTime(), Math.max(now.getTime(), Date.now()))}
        </time>
      )}
      {!readOnly && (
        <button
          type="button"
          className={`icon-button small data-refresh${query.isFetching ? " is-spinning" : ""}`}
          aria-label={`Refresh ${label}`}
          title="Refresh"
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
 * and below the data the status line. A failed refresh keeps the last data on screen.
 */
export function DataFrame<T>({
  query,
  label,
  upstream,
  provider,
  purpose = "to see this",
  skeleton,
  readOnly = false,
  children,
}: {
  query: WidgetData<T>;
  /** What the data is, for the refresh button's name: "prices", "the forecast". */
  label: string;
  /** Where the data comes from, to name it when it fails. */
  upstream: Upstream;
  provider?: Provider;
  /** A visitor's view: no refresh or retry buttons (it refreshes by itself). */
  readOnly?: boolean;
  purpose?: string;
  skeleton?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  const state = dataState(query);
  if ((state.kind === "connect" || state.kind === "reconnect") && provider) {
    return (
      <ConnectPrompt
        provider={provider}
        label={PROVIDER_LABELS[provider]}
        purpose={purpose}
        reconnect={state.kind === "reconnect"}
      />
    );
  }
  if (state.kind === "signin") {
    return (
      <div className="connect-prompt is-muted">
        <Icon name="eye" size={22} className="connect-icon is-muted" />
        <strong>Live data for signed-in people</strong>
        <p>
          <a href="/signin">Sign in to Tessera</a> to see {label} here.
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
        title={`Couldn't load ${label}`}
        onRetry={readOnly ? undefined : () => void query.refetch()}
      />
    );
  }
  return (
    <div className="data-frame">
      <div className="data-body">{children(query.data)}</div>
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
