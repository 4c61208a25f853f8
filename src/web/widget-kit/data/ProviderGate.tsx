import type { TFunction } from "i18next";
import type { ComponentType, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Provider } from "../../../contract/providers";
import { connectUrl, useProviderState, useProviders } from "../../lib/providers";
import { Icon } from "../../ui/icons";
import { ErrorState, Skeleton } from "../../ui/States";
import type { WidgetProps } from "../types";

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
  const { t } = useTranslation();
  const action = reconnect
    ? t("widgets.data.connect.reconnectTitle", { label })
    : t("widgets.data.connect.title", { label });
  return (
    <div className="connect-prompt" data-connect={provider}>
      <Icon name="link" size={22} className="connect-icon" />
      <strong>{action}</strong>
      <p>
        {reconnect
          ? t("widgets.data.connect.reconnectText", { label, purpose })
          : t("widgets.data.connect.text", { label, purpose })}
      </p>
      <a className="button primary small" href={connectUrl(provider)}>
        {action}
      </a>
    </div>
  );
}

export function NotConfigured({ label }: { label: string }) {
  const { t } = useTranslation();
  return (
    <div className="connect-prompt is-muted">
      <Icon name="alert" size={22} className="connect-icon is-muted" />
      <strong>{t("widgets.data.connect.notConfiguredTitle", { label })}</strong>
      <p>{t("widgets.data.connect.notConfiguredText", { label })}</p>
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
  /** Translated; completes "Link your Google account …", e.g. "to see your mail here". */
  purpose: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { state, label } = useProviderState(provider);
  const providers = useProviders();
  switch (state) {
    case "ready":
      return <>{children}</>;
    case "loading":
      return (
        <div className="data-skeleton" role="status" aria-label={t("widgets.data.loading")}>
          <Skeleton height={18} width="60%" />
          <Skeleton height={14} width="90%" />
          <Skeleton height={14} width="80%" />
        </div>
      );
    case "unavailable":
      return (
        <ErrorState
          error={providers.error ?? new Error(t("widgets.data.connect.unavailable", { label }))}
          title={t("widgets.data.connect.accountsFailed")}
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

/**
 * The component of a widget type that reads a connected account: its body renders (and asks for
 * data) only behind the gate. `purpose` completes "Link your Google account …", in the reader's language.
 */
export function gatedWidget<C>(
  provider: Provider,
  purpose: (t: TFunction) => string,
  Body: ComponentType<WidgetProps<C>>,
): ComponentType<WidgetProps<C>> {
  return function GatedWidget(props: WidgetProps<C>) {
    const { t } = useTranslation();
    return (
      <ProviderGate provider={provider} purpose={purpose(t)}>
        <Body {...props} />
      </ProviderGate>
    );
  };
}
