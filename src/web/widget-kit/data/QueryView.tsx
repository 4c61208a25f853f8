import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { PROVIDER_LABELS, type Provider } from "../../../contract/providers";
import { ErrorState } from "../../ui/States";
import { describeDataError, type Upstream } from "./errors";
import { ConnectPrompt } from "./ProviderGate";
import { errorCode } from "./useWidgetData";

/**
 * A one-off read in a settings panel or a dialog (an account's labels, one message): the skeleton
 * while it loads, the error with a retry when it fails, then what the data draws. A widget's own
 * refreshing data goes in DataFrame, which keeps the last answer through a failed refresh.
 */
export function QueryView<T>({
  query,
  skeleton,
  errorTitle,
  connect,
  upstream,
  children,
}: {
  query: UseQueryResult<T, unknown>;
  skeleton: ReactNode;
  errorTitle: string;
  /** A list of the account's own: when the account went missing meanwhile, its connect prompt in these words. */
  connect?: { provider: Provider; purpose: string };
  /** Who answers the read, so its failure is told by name. */
  upstream?: Upstream;
  children(data: T): ReactNode;
}) {
  if (query.isPending) return <>{skeleton}</>;
  if (query.isError) {
    if (connect && errorCode(query.error) === "account_not_connected")
      return (
        <ConnectPrompt
          provider={connect.provider}
          label={PROVIDER_LABELS[connect.provider]}
          purpose={connect.purpose}
        />
      );
    return (
      <ErrorState
        error={query.error}
        title={errorTitle}
        message={upstream ? describeDataError(query.error, upstream) : undefined}
        onRetry={() => void query.refetch()}
      />
    );
  }
  return <>{children(query.data)}</>;
}
