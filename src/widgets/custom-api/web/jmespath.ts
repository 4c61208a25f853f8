import { useEffect, useState } from "react";

type QueryModule = typeof import("../query");

let loading: Promise<QueryModule> | null = null;

/** JMESPath for the settings form, loaded on first use (it stays out of the first bundle). */
export function useJmespath(): QueryModule | null {
  const [module, setModule] = useState<QueryModule | null>(null);
  useEffect(() => {
    let live = true;
    loading ??= import("../query");
    void loading.then((loaded) => {
      if (live) setModule(loaded);
    });
    return () => {
      live = false;
    };
  }, []);
  return module;
}

/** A query's current value on the preview's JSON, or why it has none. */
export function tryQuery(
  jmes: QueryModule | null,
  json: unknown,
  query: string,
): { ok: true; value: unknown } | { ok: false; problem: string } | null {
  if (!jmes) return null;
  const problem = jmes.queryProblem(query);
  if (problem) return { ok: false, problem };
  if (json === undefined) return null;
  try {
    return { ok: true, value: jmes.runQuery(json, query) };
  } catch (error) {
    return { ok: false, problem: (error as Error).message };
  }
}
