import { createHash } from "node:crypto";
import type { AppContext } from "../../../server/context.js";
import { notFoundBecause, ProblemError } from "../../../server/http/errors.js";
import { addressOf } from "../../../server/integrations/address.js";
import { answeredJson } from "../../../server/integrations/kit.js";
import type { CachePolicy } from "../../../server/upstream/upstream.js";
import type { CustomApiData, CustomApiQuery } from "../contract.js";
import { extract } from "./extract.js";

/**
 * The cache's freshness is one per policy, while each widget names its own refresh. So a few
 * policies, one per refresh step, and a widget's answers are kept under the largest step not
 * longer than its refresh: never older than the widget asked for, and the metrics' `source`
 * label stays a short list (custom-api-60s, …) however many refresh values people type.
 */
const REFRESH_STEPS = [
  10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400,
];

const POLICIES = new Map<number, CachePolicy>(
  REFRESH_STEPS.map((seconds) => [
    seconds,
    {
      kind: `custom-api-${seconds}s`,
      fresh: seconds * 1000,
      // A typed address or a home server must not be asked again by every waiting viewer.
      failuresRemembered: true,
      // Values that would look current and be wrong (a service shown "up"): no stand-ins.
      staleIfError: false,
    },
  ]),
);

export function refreshPolicy(refreshSeconds: number): CachePolicy {
  const step = REFRESH_STEPS.findLast((seconds) => seconds <= refreshSeconds) ?? REFRESH_STEPS[0]!;
  return POLICIES.get(step)!;
}

const WHAT = "the widget's data";

/** Where an answer comes from and what is picked out of it: two widgets alike share one entry. */
function cacheKey(query: CustomApiQuery): string {
  const { refreshSeconds: _refresh, ...asked } = query;
  return createHash("sha256").update(JSON.stringify(asked)).digest("base64url");
}

/**
 * The picked values of a Custom API widget: the integration (which the widget's owner must still
 * be allowed to use: checked at every request, before the cache) or the plain address (through
 * the address guard, redirects followed hop by hop), then the queries run here.
 */
export function customApiSource(ctx: AppContext) {
  async function usable(ownerId: string, integrationId: string) {
    try {
      return await ctx.integrations.usable(ownerId, integrationId);
    } catch (error) {
      if (error instanceof ProblemError && error.status === 404)
        throw notFoundBecause("This integration is gone or not yours");
      throw error;
    }
  }

  return async function load(query: CustomApiQuery, ownerId: string): Promise<CustomApiData> {
    const integration = query.integrationId ? await usable(ownerId, query.integrationId) : null;
    return ctx.upstream.cached(refreshPolicy(query.refreshSeconds), cacheKey(query), async () => {
      if (integration) {
        const response = await ctx.integrations.call(integration, { path: query.path, what: WHAT });
        return extract(answeredJson(response, integration.name), query);
      }
      const url = addressOf(query.url!);
      const response = await ctx.upstream.fetch({ url: url.href, service: url.host, what: WHAT });
      return extract(answeredJson(response, url.host), query);
    });
  };
}
