import { type QueryClient, type QueryKey, useQueryClient } from "@tanstack/react-query";
import { ignoreGone } from "./operators-api";

/**
 * A cached list of records follows a write the server confirmed at once, without a refetch: the
 * saved record takes its old one's place, or a removed one leaves.
 */
export function replaceInList<T extends { id: string }>(client: QueryClient, key: QueryKey, saved: T) {
  client.setQueryData<T[]>(key, (list) => list?.map((item) => (item.id === saved.id ? saved : item)));
}

export function removeFromList<T extends { id: string }>(client: QueryClient, key: QueryKey, id: string) {
  client.setQueryData<T[]>(key, (list) => list?.filter((item) => item.id !== id));
}

/** Deletes a record on the server (one already gone counts as deleted) and drops it from the cached list. */
export function useRemoveFromList(key: QueryKey, remove: (id: string) => Promise<unknown>) {
  const client = useQueryClient();
  return async (id: string) => {
    await remove(id).catch(ignoreGone);
    removeFromList(client, key, id);
  };
}
