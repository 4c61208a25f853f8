import {
  type InfiniteData,
  type QueryKey,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useEffect } from "react";
import { ApiError } from "../../lib/api";
import { keys } from "../../lib/queries";

/**
 * What every data widget needs from its query, whichever hook made it (plain or paged): the
 * data, when it arrived, whether the last attempt failed, and a way to ask again.
 */
export interface WidgetData<T> {
  data: T | undefined;
  dataUpdatedAt: number;
  error: unknown;
  errorUpdatedAt: number;
  isError: boolean;
  isFetching: boolean;
  refetch(): unknown;
}

export type DataState =
  | { kind: "loading" }
  | { kind: "error"; error: unknown }
  /** The server says the account is missing or must be linked again. */
  | { kind: "connect" }
  | { kind: "reconnect" }
  /** No session (the public page): these endpoints are for signed-in users. */
  | { kind: "signin" }
  | { kind: "fresh" }
  /** Data is on screen, but the latest refresh failed: it is kept and marked. */
  | { kind: "stale"; error: unknown };

export function errorCode(error: unknown): string | null {
  return error instanceof ApiError ? error.code : null;
}

export function dataState(query: Omit<WidgetData<unknown>, "refetch" | "isFetching">): DataState {
  const { data, error, isError } = query;
  if (isError) {
    const code = errorCode(error);
    if (code === "account_not_connected") return { kind: "connect" };
    if (code === "reconnect_required") return { kind: "reconnect" };
    if (error instanceof ApiError && error.status === 401) return { kind: "signin" };
  }
  if (data === undefined) return isError ? { kind: "error", error } : { kind: "loading" };
  if (isError && query.errorUpdatedAt >= query.dataUpdatedAt) return { kind: "stale", error };
  return { kind: "fresh" };
}

/** Client errors and "link again" answers will not change by asking twice; upstream hiccups might. */
export function retryData(failures: number, error: unknown): boolean {
  if (error instanceof ApiError) {
    if (error.status >= 400 && error.status < 500) return false;
    if (error.code === "reconnect_required") return false;
  }
  return failures < 1;
}

interface Options<T> {
  queryKey: QueryKey;
  queryFn: () => Promise<T>;
  /** How often the data is fetched again while the widget is on screen. */
  refreshMs: number;
  enabled?: boolean;
  /** Ask again when the window gets focus (off by default: most data changes slower than that). */
  refetchOnFocus?: boolean;
}

/** A widget's data, refreshed on an interval; a failed refresh keeps what was shown. */
export function useWidgetData<T>({
  queryKey,
  queryFn,
  refreshMs,
  enabled = true,
  refetchOnFocus = false,
}: Options<T>): WidgetData<T> {
  const query = useQuery({
    queryKey,
    queryFn,
    enabled,
    refetchOnWindowFocus: refetchOnFocus,
    refetchInterval: refreshMs,
    staleTime: Math.min(refreshMs, 60_000),
    retry: retryData,
    gcTime: Math.max(refreshMs * 2, 5 * 60_000),
  });
  useProviderErrorSync(query.error);
  return query;
}

/** The same for lists read a page at a time ("Load more"); a refresh re-reads the loaded pages. */
export function useWidgetPages<P, C>(options: {
  queryKey: QueryKey;
  queryFn: (cursor: C | undefined) => Promise<P>;
  nextCursor: (page: P) => C | null | undefined;
  refreshMs: number;
  enabled?: boolean;
  /** Keep refreshing while the tab is hidden (a reminder depends on noticing new items). */
  inBackground?: boolean;
}) {
  const query = useInfiniteQuery<P, Error, InfiniteData<P, C | undefined>, QueryKey, C | undefined>({
    queryKey: options.queryKey,
    queryFn: ({ pageParam }) => options.queryFn(pageParam as C | undefined),
    initialPageParam: undefined,
    getNextPageParam: (last) => options.nextCursor(last) ?? undefined,
    enabled: options.enabled ?? true,
    refetchInterval: options.refreshMs,
    refetchIntervalInBackground: options.inBackground ?? false,
    staleTime: Math.min(options.refreshMs, 60_000),
    retry: retryData,
  });
  useProviderErrorSync(query.error);
  return query;
}

/** When the server says an account is gone or expired, the provider list is out of date too. */
function useProviderErrorSync(error: unknown) {
  const client = useQueryClient();
  const code = errorCode(error);
  useEffect(() => {
    if (code === "account_not_connected" || code === "reconnect_required")
      void client.invalidateQueries({ queryKey: keys.providers });
  }, [code, client]);
}
