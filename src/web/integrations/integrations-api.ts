import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  CreateIntegrationBody,
  Integration,
  IntegrationCheck,
  IntegrationKind,
  TestIntegrationBody,
  UpdateIntegrationBody,
} from "../../contract/integrations";
import { request } from "../lib/api";
import { removeFromList, replaceInList } from "../lib/list-cache";
import { ignoreGone } from "../lib/operators-api";

export type { Integration, IntegrationCheck, IntegrationKind };

export const integrationKeys = {
  list: ["integrations"] as const,
  kinds: ["integrations", "kinds"] as const,
};

const byId = (id: string) => `/api/integrations/${encodeURIComponent(id)}`;

/** Saved connections to services (DESIGN §16): the caller's own, then the instance's. */
export const integrationsApi = {
  list: () => request<Integration[]>("GET", "/api/integrations"),
  kinds: () => request<IntegrationKind[]>("GET", "/api/integrations/kinds"),
  create: (body: CreateIntegrationBody) => request<Integration>("POST", "/api/integrations", body),
  update: (id: string, body: UpdateIntegrationBody) => request<Integration>("PUT", byId(id), body),
  remove: (id: string) => request<unknown>("DELETE", byId(id)),
  /** Answers 200 whether the service answered well or not: `ok` says which. */
  test: (body: TestIntegrationBody) => request<IntegrationCheck>("POST", "/api/integrations/test", body),
};

export function useIntegrations() {
  return useQuery({ queryKey: integrationKeys.list, queryFn: integrationsApi.list });
}

/** The kinds change only with the server's version. */
export function useIntegrationKinds() {
  return useQuery({
    queryKey: integrationKeys.kinds,
    queryFn: integrationsApi.kinds,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Creates one or saves changes to one; the list shows it at once, in the server's order after a refetch. */
export function useSaveIntegration() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; body: UpdateIntegrationBody } | { body: CreateIntegrationBody }) =>
      "id" in input
        ? integrationsApi.update(input.id, input.body)
        : integrationsApi.create(input.body as CreateIntegrationBody),
    onSuccess: (saved, input) => {
      if ("id" in input) replaceInList(client, integrationKeys.list, saved);
      else
        client.setQueryData<Integration[]>(integrationKeys.list, (list) => (list ? [...list, saved] : list));
      void client.invalidateQueries({ queryKey: integrationKeys.list, exact: true });
    },
  });
}

/** Deletes one (one already gone counts as deleted). */
export function useRemoveIntegration() {
  const client = useQueryClient();
  return async (id: string) => {
    await integrationsApi.remove(id).catch(ignoreGone);
    removeFromList(client, integrationKeys.list, id);
  };
}

/** Tests a saved one or an unsaved form; a saved one's check is its new last check, so the list is read again. */
export function useTestIntegration() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: integrationsApi.test,
    onSuccess: (_check, body) => {
      if ("id" in body) void client.invalidateQueries({ queryKey: integrationKeys.list, exact: true });
    },
  });
}
