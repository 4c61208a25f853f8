import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { type FeedResult, FeedsResponse } from "../../../contract/data.js";
import { httpUrl } from "../../../contract/widget-kit/fields.js";
import type { AppContext } from "../../../server/context.js";
import { badRequest, ProblemError } from "../../../server/http/errors.js";
import { errorResponses } from "../../../server/http/schemas.js";
import type { WidgetData } from "../../../server/widgets/data.js";
import { FEEDS_MAX } from "../contract.js";
import { createFeedReader } from "./reader.js";

/** Addresses are separated by white space, which a normalised URL never contains. */
function parseUrls(raw: string): string[] {
  const urls = raw.split(/\s+/).filter(Boolean);
  if (urls.length === 0 || urls.length > FEEDS_MAX)
    throw badRequest(`Between 1 and ${FEEDS_MAX} feed addresses`, [
      { path: "/urls", message: `has ${urls.length} addresses` },
    ]);
  return urls.map((url) => {
    const normalised = httpUrl(url);
    if (!normalised)
      throw badRequest(`${JSON.stringify(url.slice(0, 60))} is not an http(s) address`, [
        { path: "/urls", message: "must be http(s) addresses" },
      ]);
    return normalised;
  });
}

/** When no feed could be had, the first failure is the answer (its own status), as for prices. */
function answer(results: FeedResult[]): FeedResult[] {
  const first = results[0];
  if (first && results.every((r) => "error" in r) && "error" in first)
    throw new ProblemError(first.error.status, first.error.code as ProblemError["code"], first.error.detail);
  return results;
}

/** RSS and Atom feeds for Feed widgets, fetched and cached by the server. */
export const feedRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const reader = createFeedReader(ctx.upstream);

  app.get(
    "/api/feeds",
    {
      schema: {
        tags: ["Feeds"],
        summary: "The newest entries of up to 8 RSS or Atom feeds",
        description:
          "Addresses on private, loopback or link-local networks are refused (400 address_not_allowed) unless FETCH_ALLOW_PRIVATE names them.",
        querystring: Type.Object({
          urls: Type.String({
            minLength: 1,
            maxLength: FEEDS_MAX * 2100,
            description: "Feed addresses separated by spaces",
          }),
        }),
        response: { 200: FeedsResponse, ...errorResponses(404, 502, 504) },
      },
    },
    async (request) => answer(await reader.readAll(parseUrls(request.query.urls))),
  );
};

/** What a Feed widget's stored feeds hold (GET /api/widgets/data and public pages). */
export function feedData(ctx: AppContext): WidgetData<string[]> {
  const reader = createFeedReader(ctx.upstream);
  return {
    response: FeedsResponse,
    summary: "The entries of a Feed widget on a public dashboard, without a session",
    description:
      "For the feeds stored in the widget's config. 404 unless the dashboard is public and the widget is a Feed widget on it with at least one feed.",
    load: async (urls) => answer(await reader.readAll(urls)),
  };
}
