import { type Static, Type } from "@sinclair/typebox";
import { defineSource } from "../source.js";

/** GitHub marks absent values null as often as it leaves them out. */
const Maybe = <T extends Parameters<typeof Type.Optional>[0]>(schema: T) =>
  Type.Optional(Type.Union([schema, Type.Null()]));

const SearchItem = Type.Object({
  id: Type.Number(),
  number: Type.Number(),
  title: Type.String(),
  html_url: Type.String(),
  repository_url: Maybe(Type.String()),
  state: Type.String(),
  draft: Maybe(Type.Boolean()),
  pull_request: Type.Optional(Type.Unknown()),
  user: Maybe(Type.Object({ login: Maybe(Type.String()) })),
  labels: Maybe(
    Type.Array(
      Type.Union([Type.Object({ name: Maybe(Type.String()), color: Maybe(Type.String()) }), Type.String()]),
    ),
  ),
  comments: Maybe(Type.Number()),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type GithubSearchItem = Static<typeof SearchItem>;

/** REST issue search (https://docs.github.com/en/rest/search/search#search-issues-and-pull-requests). */
export const GithubIssueSearch = defineSource(
  Type.Object({
    total_count: Maybe(Type.Number()),
    incomplete_results: Maybe(Type.Boolean()),
    items: Maybe(Type.Array(SearchItem)),
  }),
);

const GraphUser = Type.Object({
  login: Type.String(),
  contributionsCollection: Type.Object({
    contributionCalendar: Type.Object({
      totalContributions: Type.Number(),
      weeks: Type.Array(
        Type.Object({
          contributionDays: Type.Array(
            Type.Object({
              date: Type.String(),
              contributionCount: Type.Number(),
              contributionLevel: Type.String(),
            }),
          ),
        }),
      ),
    }),
  }),
});

/** GraphQL contribution calendar of `viewer` or `user(login:)`. */
export const GithubContributions = defineSource(
  Type.Object({
    data: Maybe(Type.Object({ viewer: Maybe(GraphUser), user: Maybe(GraphUser) })),
    errors: Maybe(Type.Array(Type.Object({ type: Maybe(Type.String()), message: Maybe(Type.String()) }))),
  }),
);
