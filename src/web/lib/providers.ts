import { type QueryClient, useQuery } from "@tanstack/react-query";
import { PROVIDER_LABELS, type Provider } from "../../contract/providers";
import { api, type ProviderStatus } from "./api";
import { dataKeys } from "./data-api";
import { keys } from "./queries";

/**
 * Starts the server's OAuth flow; the provider sends the browser back to this same page with
 * `?connected=<provider>` (or `?connect=<provider>&error=<code>`), which the workspace reports.
 */
export function connectUrl(provider: Provider, returnTo = window.location.pathname): string {
  return `/api/providers/${provider}/connect?returnTo=${encodeURIComponent(returnTo)}`;
}

export function useProviders() {
  return useQuery({ queryKey: keys.providers, queryFn: api.providers, staleTime: 60_000 });
}

export type ProviderState = "loading" | "unavailable" | "not-configured" | "connect" | "reconnect" | "ready";

export function providerState(status: ProviderStatus | undefined, loaded: boolean): ProviderState {
  if (!loaded) return "loading";
  if (!status) return "unavailable";
  if (!status.configured) return "not-configured";
  if (!status.connected) return "connect";
  if (status.reconnectRequired) return "reconnect";
  return "ready";
}

export function useProviderState(provider: Provider): { state: ProviderState; label: string } {
  const { data, isSuccess, isError } = useProviders();
  const status = data?.find((p) => p.provider === provider);
  return {
    state: isError ? "unavailable" : providerState(status, isSuccess),
    label: status?.label || PROVIDER_LABELS[provider],
  };
}

/** After connecting or disconnecting: the status list and every widget's data for that provider. */
export function refreshProvider(client: QueryClient, provider: Provider) {
  void client.invalidateQueries({ queryKey: keys.providers });
  void client.invalidateQueries({ queryKey: keys.accounts });
  client.removeQueries({ queryKey: dataKeys.provider(provider) });
}
