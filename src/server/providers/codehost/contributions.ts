import { notFoundBecause, upstreamFailed } from "../../http/errors.js";
import { GithubContributions } from "../../upstream/sources/github.js";
import { accountData, type ProviderServices } from "../client.js";
import type { AccountRow } from "../tokens.js";

const SERVICE = "GitHub";
/** GitHub logins: alphanumerics and single inner hyphens, at most 39 characters. */
export const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;

const CONTRIBUTIONS = accountData("contributions", "contributions");

const CALENDAR_FIELDS = `login contributionsCollection(from: $from, to: $to) {
  contributionCalendar { totalContributions weeks { contributionDays { date contributionCount contributionLevel } } }
}`;
/** Without a login, `viewer` is the token's own account: its login, never a display name. */
const VIEWER_QUERY = `query($from: DateTime!, $to: DateTime!) { viewer { ${CALENDAR_FIELDS} } }`;
const USER_QUERY = `query($login: String!, $from: DateTime!, $to: DateTime!) { user(login: $login) { ${CALENDAR_FIELDS} } }`;

const LEVELS: Record<string, number> = {
  NONE: 0,
  FIRST_QUARTILE: 1,
  SECOND_QUARTILE: 2,
  THIRD_QUARTILE: 3,
  FOURTH_QUARTILE: 4,
};

/** The year to show: a calendar year, or by default the 365 days up to now (GitHub's own view). */
export function contributionRange(year: number | undefined, now = new Date()) {
  if (year === undefined) return { from: new Date(now.getTime() - 365 * 86_400_000), to: now };
  const from = new Date(Date.UTC(year, 0, 1));
  const end = new Date(Date.UTC(year, 11, 31, 23, 59, 59));
  return { from, to: end < now ? end : now };
}

export async function contributionCalendar(
  services: ProviderServices,
  row: AccountRow,
  options: { login?: string; year?: number },
) {
  const { from, to } = contributionRange(options.year);
  const key = services.key(
    row,
    "contributions",
    options.login?.toLowerCase() ?? "@me",
    options.year ?? "last",
  );
  return services.cached(CONTRIBUTIONS, key, async () => {
    const variables: Record<string, string> = { from: from.toISOString(), to: to.toISOString() };
    if (options.login) variables.login = options.login;
    const res = await services.call(row, {
      what: "contribution calendar",
      method: "POST",
      path: "/graphql",
      json: { query: options.login ? USER_QUERY : VIEWER_QUERY, variables },
    });
    const body = GithubContributions.read(res);
    const user = options.login ? body.data?.user : body.data?.viewer;
    if (!user) {
      if (body.errors?.some((e) => e.type === "NOT_FOUND")) {
        throw notFoundBecause(`GitHub has no user ${options.login}`);
      }
      throw upstreamFailed(`${SERVICE}: the GraphQL answer carried no contribution calendar`);
    }
    const calendar = user.contributionsCollection.contributionCalendar;
    return {
      login: user.login,
      from: from.toISOString(),
      to: to.toISOString(),
      totalContributions: calendar.totalContributions,
      days: calendar.weeks.flatMap((w) =>
        w.contributionDays.map((d) => ({
          date: d.date,
          count: d.contributionCount,
          level: LEVELS[d.contributionLevel] ?? 0,
        })),
      ),
    };
  });
}
