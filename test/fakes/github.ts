import { type FakeRequest, ProviderFake, TokenAuthority, type TokenCheck } from "./oauth-http.js";

/**
 * GitHub REST search (docs.github.com/rest/search/search#search-issues-and-pull-requests) and
 * GraphQL contributionsCollection.contributionCalendar, with fixtures, plus /token and /user.
 */

export const VIEWER_LOGIN = "octo-ada";
const OTHER_LOGIN = "grace-h";
const LEVELS = ["NONE", "FIRST_QUARTILE", "SECOND_QUARTILE", "THIRD_QUARTILE", "FOURTH_QUARTILE"];

interface Item {
  id: number;
  number: number;
  title: string;
  repo: string;
  pr: boolean;
  labels: { id: number; name: string; color: string }[];
}

function buildItems(): Item[] {
  const items: Item[] = [];
  for (let i = 0; i < 45; i++) {
    items.push({
      id: 1000 + i,
      number: i + 1,
      title: `Issue ${i}`,
      repo: i % 2 ? "octo/alpha" : "octo/beta",
      pr: false,
      labels: i % 4 === 0 ? [{ id: 1, name: "bug", color: "d73a4a" }] : [],
    });
  }
  for (let i = 0; i < 5; i++) {
    items.push({ id: 2000 + i, number: 100 + i, title: `PR ${i}`, repo: "octo/alpha", pr: true, labels: [] });
  }
  return items;
}

export class FakeGithub extends ProviderFake {
  readonly items = buildItems();

  static start(options: { authorize?: TokenCheck } = {}) {
    return new FakeGithub(new TokenAuthority("github", "post"), options.authorize).listen();
  }

  protected async handleApi(req: FakeRequest) {
    if (!(await this.authorized(req))) return { status: 401, json: { message: "Bad credentials" } };
    if (req.headers["user-agent"] === undefined)
      return { status: 403, json: { message: "User-Agent required" } };
    if (req.path === "/user")
      return { json: { login: VIEWER_LOGIN, id: 4242, name: "Ada Display Name", email: null } };
    if (req.path === "/search/issues") return this.search(req);
    if (req.path === "/graphql" && req.method === "POST") return this.graphql(req);
    return { status: 404, json: { message: "Not Found" } };
  }

  private search(req: FakeRequest) {
    const q = req.query.get("q") ?? "";
    // The one query we promise: open items assigned to or authored by the token's user.
    if (
      !q.includes("is:open") ||
      !q.includes("(assignee:@me OR author:@me)") ||
      req.query.get("advanced_search") !== "true"
    ) {
      return { status: 422, json: { message: "Validation Failed", q } };
    }
    const wantPr = q.includes("is:pr");
    if (!wantPr && !q.includes("is:issue"))
      return { status: 422, json: { message: "is:issue or is:pr required" } };
    const repos = [...q.matchAll(/repo:([\w.-]+\/[\w.-]+)/g)].map((m) => m[1]);
    const perPage = Number(req.query.get("per_page") ?? 30);
    const page = Number(req.query.get("page") ?? 1);
    const all = this.items.filter((i) => i.pr === wantPr && (repos.length === 0 || repos.includes(i.repo)));
    const items = all.slice((page - 1) * perPage, page * perPage).map((i) => ({
      url: `https://api.github.com/repos/${i.repo}/issues/${i.number}`,
      repository_url: `https://api.github.com/repos/${i.repo}`,
      html_url: `https://github.com/${i.repo}/${i.pr ? "pull" : "issues"}/${i.number}`,
      id: i.id,
      number: i.number,
      title: i.title,
      user: { login: VIEWER_LOGIN, id: 4242 },
      labels: i.labels,
      state: "open",
      comments: 2,
      created_at: "2026-01-10T10:00:00Z",
      updated_at: "2026-01-20T10:00:00Z",
      ...(i.pr
        ? {
            draft: i.number === 100,
            pull_request: { url: `https://api.github.com/repos/${i.repo}/pulls/${i.number}` },
          }
        : {}),
      score: 1,
    }));
    return { json: { total_count: all.length, incomplete_results: false, items } };
  }

  private graphql(req: FakeRequest) {
    const { query, variables } = req.json<{ query: string; variables: Record<string, string> }>();
    if (
      !/contributionsCollection\(from: \$from, to: \$to\)/.test(query) ||
      !query.includes("contributionCalendar")
    ) {
      return { json: { errors: [{ message: "unexpected query" }] } };
    }
    const from = Date.parse(variables.from ?? "");
    const to = Date.parse(variables.to ?? "");
    if (!(to > from) || to - from > 366 * 86_400_000) {
      return {
        json: { errors: [{ message: "The total time spanned by 'from' and 'to' must not exceed 1 year" }] },
      };
    }
    let login: string;
    if (query.includes("viewer {")) login = VIEWER_LOGIN;
    else if (variables.login === OTHER_LOGIN || variables.login === VIEWER_LOGIN) login = variables.login;
    else {
      return {
        json: {
          data: { user: null },
          errors: [
            {
              type: "NOT_FOUND",
              path: ["user"],
              message: `Could not resolve to a User with the login of '${variables.login}'.`,
            },
          ],
        },
      };
    }
    const weeks: {
      contributionDays: {
        date: string;
        contributionCount: number;
        contributionLevel: string;
        color: string;
        weekday: number;
      }[];
    }[] = [];
    let total = 0;
    for (let t = from, i = 0; t <= to; t += 86_400_000, i++) {
      const day = new Date(t);
      if (weeks.length === 0 || day.getUTCDay() === 0) weeks.push({ contributionDays: [] });
      const count = login === VIEWER_LOGIN ? i % 5 : 1;
      total += count;
      weeks.at(-1)!.contributionDays.push({
        date: day.toISOString().slice(0, 10),
        contributionCount: count,
        contributionLevel: LEVELS[Math.min(count, 4)]!,
        color: "#ebedf0",
        weekday: day.getUTCDay(),
      });
    }
    const user = {
      login,
      contributionsCollection: { contributionCalendar: { totalContributions: total, weeks } },
    };
    return { json: { data: query.includes("viewer {") ? { viewer: user } : { user } } };
  }
}
