import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { ContributionsSchema, WorkItemPageSchema } from "../../../contract/data.js";
import { errorResponses } from "../../http/schemas.js";
import type { ProviderServices } from "../client.js";
import { IntString, intParam, listParam } from "../params.js";
import { contributionCalendar, LOGIN } from "./contributions.js";
import { REPO, searchWorkItems } from "./search.js";

const tags = ["Providers"];
/** GitHub data for the Codehost and Codehost Heatmap widgets, under /api/providers/codehost. */
export const codehostRoutes: FastifyPluginAsyncTypebox<ProviderServices> = async (app, services) => {
  app.get(
    "/api/providers/codehost/items",
    {
      schema: {
        tags,
        summary: "Open issues or pull requests assigned to or authored by the user (one search)",
        querystring: Type.Object({
          type: Type.Optional(
            Type.Union([Type.Literal("issue"), Type.Literal("pr")], { description: "default issue" }),
          ),
          repos: Type.Optional(Type.String({ maxLength: 2200, description: "comma-separated owner/name" })),
          page: Type.Optional(IntString("1 to 10, default 1")),
          perPage: Type.Optional(IntString("1 to 100, default 30")),
        }),
        response: { 200: WorkItemPageSchema, ...errorResponses(404, 502, 504) },
      },
    },
    async (request) => {
      const q = request.query;
      const repos = listParam(q.repos, "repos", REPO, 10);
      const page = intParam(q.page, "page", 1, 10, 1);
      const perPage = intParam(q.perPage, "perPage", 1, 100, 30);
      const row = await services.account(request.user.id, "codehost");
      return searchWorkItems(services, row, { type: q.type ?? "issue", repos, page, perPage });
    },
  );

  app.get(
    "/api/providers/codehost/contributions",
    {
      schema: {
        tags,
        summary: "A year of contributions; by default the connected account's own, over the last 365 days",
        querystring: Type.Object({
          login: Type.Optional(Type.String({ pattern: LOGIN.source, description: "another GitHub login" })),
          year: Type.Optional(Type.String({ pattern: "^[0-9]{4}$", description: "a calendar year" })),
        }),
        response: { 200: ContributionsSchema, ...errorResponses(404, 502, 504) },
      },
    },
    async (request) => {
      const { login, year } = request.query;
      const y = year === undefined ? undefined : intParam(year, "year", 2008, new Date().getUTCFullYear(), 0);
      const row = await services.account(request.user.id, "codehost");
      return contributionCalendar(services, row, { login, year: y });
    },
  );
};
