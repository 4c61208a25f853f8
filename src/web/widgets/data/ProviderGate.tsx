import type { ReactNode } from "react";
import type { Provider } from "../../../contract/providers";
import { connectUrl, useProviderState, useProviders } from "../../lib/providers";
import { Icon } from "../../ui/icons";
import { ErrorState, Skeleton } from "../../ui/States";

/** "Connect Google" (or "Reconnect"): one click starts the OAuth flow and comes back here. */
export function ConnectPrompt({
  provider,
  label,
  purpose,
  reconnect = false,
}: {
  provider: Provider;
  label: string;
  purpose: string;
  reconnect?: boolean;
}) {
  return (
    <div className="connect-prompt" data-connect={provider}>
      <Icon name="link" size={22} className="connect-icon" />
      <strong>{reconnect ? `Reconnect ${label}` : `Connect ${label}`}</strong>
      <p>
        {reconnect
          ? `The connection to ${label} has expired. Sign in there again ${purpose}.`
          : `Link your ${label} account ${purpose}.`}
      </p>
      <a className="button primary small" href={connectUrl(provider)}>
        {reconnect ? "Reconnect" : "Connect"} {label}
      </a>
    </div>
  );
}

export function NotConfigured({ label }: { label: string }) {
  return (
    <div className="connect-prompt is-muted">
      <Icon name="alert" size={22} className="connect-icon is-muted" />
      <strong>{label} is not configured</strong>
      <p>This Tessera server has no {label} client credentials. An administrator can add them.</p>
    </div>
  );
}

/**
 * Renders its children only while the provider is linked and usable, so the data hooks inside
 * never ask for data the server cannot have; otherwise the one action that helps.
 */
export function ProviderGate({
  provider,
  purpose,
  children,
}: {
  provider: Provider;
  /** Completes "Link your Google account …", e.g. "to see your mail here". */
  purpose: string;
  children: ReactNode;
}) {
  const { state, label } = useProviderState(provider);
  const providers = useProviders();
  switch (state) {
    case "ready":
      return <>{children}</>;
    case "loading":
      return (
        <div className="data-skeleton" role="status" aria-label="Loading">
          <Skeleton height={18} width="60%" />
          <Skeleton height={14} width="90%" />
          <Skeleton height={14} width="80%" />
        </div>
      );
    case "unavailable":
      return (
        <ErrorState
          error={providers.error ?? new Error(`${label} is not available on this server`)}
          title="Connected accounts didn't load"
          onRetry={() => void providers.refetch()}
        />
      );
    case "not-configured":
      return <NotConfigured label={label} />;
    case "connect":
      return <ConnectPrompt provider={provider} label={label} purpose={purpose} />;
    case "reconnect":
      return <ConnectPrompt provider={provider} label={label} purpose={purpose} reconnect />;
  }
}
