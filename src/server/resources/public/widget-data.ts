import { Type } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import { ProblemSchema, Uuid } from "../../../contract/resources.js";
import type { WidgetType } from "../../../contract/widgets.js";
import type { AppContext } from "../../context.js";
import { found, ProblemError } from "../../http/errors.js";
import { readPublicWidgetConfig } from "./queries.js";

/** Visitors of public dashboards have no session, so they are counted per client address. */
const PUBLIC_DATA_PER_MINUTE = 120;

export const PublicWidgetParams = Type.Object({ id: Uuid, widgetId: Uuid });
export const publicDataErrors = {
  400: Type.Ref(ProblemSchema),
  404: Type.Ref(ProblemSchema),
  429: Type.Ref(ProblemSchema),
  502: Type.Ref(ProblemSchema),
  504: Type.Ref(ProblemSchema),
};

/**
 * Live data for a widget on a public dashboard is fetched with the widget's stored config, never
 * with parameters from the visitor: this checks the address's budget and loads that config (404
 * unless the dashboard is public and holds such a widget).
 */
export async function publicWidgetConfig(
  ctx: AppContext,
  request: Pick<FastifyRequest, "ip">,
  { id, widgetId }: { id: string; widgetId: string },
  type: WidgetType,
) {
  if (ctx.config.rateLimitEnabled) {
    const verdict = await ctx.limiter.hit(`public-data:${request.ip}`, PUBLIC_DATA_PER_MINUTE, 60_000);
    if (!verdict.allowed) {
      throw new ProblemError(429, "rate_limited", "Too many requests for public widget data", {
        retryAfterSeconds: verdict.retryAfterMs / 1000,
      });
    }
  }
  return found(await readPublicWidgetConfig(ctx.database.db, id, widgetId, type), "Widget");
}
