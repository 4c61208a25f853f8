import { notFoundBecause, ProblemError, upstreamFailed } from "../../../server/http/errors.js";
import type { UpstreamResponse } from "../../../server/upstream/fetch.js";
import type { Upstream } from "../../../server/upstream/upstream.js";
import type { CalendarErrorReason } from "../contract.js";
import { type Expanded, expandCalendar, NotACalendar } from "./expand.js";

export const ACCEPT = "text/calendar, text/plain;q=0.8, */*;q=0.5";
/** As the upstream layer follows them for any typed address. */
const MAX_REDIRECTS = 3;

/** A failure of one source, with the reason the widget names it by (in the reader's language). */
export class CalendarProblem extends ProblemError {
  constructor(
    readonly reason: CalendarErrorReason,
    problem: ProblemError,
  ) {
    super(problem.status, problem.code, problem.detail, problem.extra);
  }
}

/** Why a source failed, from what the upstream layer or the feed said. */
export function reasonOf(error: ProblemError): CalendarErrorReason {
  if (error instanceof CalendarProblem) return error.reason;
  if (error.code === "address_not_allowed") return "blocked";
  if (error.status === 504) return "timeout";
  if (/oversized/i.test(error.detail)) return "too_large";
  return "failed";
}

/** The answer of a calendar's host, judged: its text when it is a feed, else why not, naming the host. */
export function feedText(response: UpstreamResponse, host: string): string {
  const { status } = response;
  if (status === 401 || status === 403)
    throw new CalendarProblem(
      "refused",
      upstreamFailed(
        `${host} refused the calendar (${status}): it needs a password, or the secret address changed`,
      ),
    );
  if (status === 404 || status === 410)
    throw new CalendarProblem(
      "not_found",
      notFoundBecause(`${host} has no calendar at that address (${status})`),
    );
  const location = status >= 300 && status < 400 ? response.headers.get("location") : null;
  if (location)
    throw new CalendarProblem(
      "failed",
      upstreamFailed(`${host} sends the calendar on to ${hostOf(location, host)}: save that address instead`),
    );
  if (status < 200 || status > 299)
    throw new CalendarProblem("failed", upstreamFailed(`${host} answered ${status} for the calendar`));
  return response.text;
}

function hostOf(location: string, base: string): string {
  try {
    return new URL(location, `https://${base}`).host;
  } catch {
    return "another address";
  }
}

/** The feed's occurrences within `window`, or a problem saying the host sent something else. */
export function expandFeed(
  text: string,
  host: string,
  type: string | null,
  window: { from: number; to: number },
): Expanded {
  try {
    return expandCalendar(text, window);
  } catch (error) {
    if (!(error instanceof NotACalendar)) throw error;
    const what =
      /html/i.test(type ?? "") || /^\s*</.test(text.slice(0, 512)) ? "a web page" : "something else";
    throw new CalendarProblem(
      "not_calendar",
      upstreamFailed(
        `${host} answered with ${what}, not an iCalendar feed: is it the calendar's own address?`,
      ),
    );
  }
}

/** An address with its user name and password (as Nextcloud's export links are often pasted) taken out. */
export function splitCredentials(address: string): { url: URL; authorization: string | null } {
  const url = new URL(address);
  if (!url.username && !url.password) return { url, authorization: null };
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  url.username = "";
  url.password = "";
  return { url, authorization: `Basic ${Buffer.from(pair, "utf8").toString("base64")}` };
}

/**
 * Fetches a feed at an address a person typed, through the address guard (never pinned). A
 * password in the address goes as Basic auth, and then only to that same host: a redirect
 * elsewhere is refused rather than handed the password.
 */
export async function fetchTypedFeed(upstream: Upstream, address: string): Promise<UpstreamResponse> {
  const { url, authorization } = splitCredentials(address);
  const host = url.host;
  if (!authorization)
    return upstream.fetch({
      url: url.href,
      service: host,
      what: "the calendar",
      headers: { accept: ACCEPT },
    });
  let current = url;
  for (let hop = 0; ; hop++) {
    const response = await upstream.fetch({
      url: current.href,
      service: host,
      what: "the calendar",
      headers: { accept: ACCEPT, authorization },
      followRedirects: false,
    });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status > 399 || !location) return response;
    const next = new URL(location, current);
    if (next.hostname !== url.hostname)
      throw new CalendarProblem(
        "failed",
        upstreamFailed(`${host} sends the calendar on to ${next.host}; the password is not sent there`),
      );
    if (hop === MAX_REDIRECTS) throw upstreamFailed(`More than ${MAX_REDIRECTS} redirects from ${host}`);
    current = next;
  }
}
