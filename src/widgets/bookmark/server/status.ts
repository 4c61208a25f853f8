import type { StatusTargetResult } from "../../../contract/data.js";
import type { AppContext } from "../../../server/context.js";
import type { CachePolicy } from "../../../server/upstream/upstream.js";
import { type CheckRef, checkRefKey, namedCheckStates } from "../../../server/widgets/status-checks/named.js";
import { type Probe, probe } from "../../../server/widgets/status-checks/probe.js";
import type { BookmarkStatusData, BookmarkStatusQuery, LinkReason, LinkStatusResult } from "../contract.js";
import { publicAddress } from "./public-address.js";

/**
 * A link's own address, checked as the Status widget checks (one HEAD, GET when refused, through
 * the address guard) and kept 30 s per address: every widget and reader naming it shares one
 * check, so a crowd on a public page costs the site nothing more. A dot has to answer while the
 * page waits, so a check waits 5 s, not the Status pass's 10.
 */
const LINK_CHECKS: CachePolicy = {
  kind: "bookmark-status",
  fresh: 30_000,
  // A probe answers "down" rather than failing: there is no failure to remember.
  failuresRemembered: false,
  staleIfError: false,
};
const CHECK_TIMEOUT_MS = 5_000;

const REASONS: Record<NonNullable<Probe["error"]>["code"], LinkReason> = {
  timeout: "timeout",
  unreachable: "unreachable",
  address_not_allowed: "not-allowed",
};

interface Checked extends Probe {
  checkedAt: string;
}

function fromProbe(id: string, found: Checked): LinkStatusResult {
  const reason = found.error ? REASONS[found.error.code] : found.up ? null : "http";
  return {
    id,
    state: found.error?.code === "address_not_allowed" ? "unknown" : found.up ? "up" : "down",
    reason,
    httpStatus: found.httpStatus,
    latencyMs: found.latencyMs,
    checkedAt: found.checkedAt,
  };
}

function fromCheck(id: string, found: StatusTargetResult | undefined): LinkStatusResult {
  const none = { httpStatus: null, latencyMs: null, checkedAt: null };
  if (!found) return { id, state: "unknown", reason: "no-check", ...none };
  const { state } = found;
  if (!state) return { id, state: "unknown", reason: "not-checked", ...none };
  return fromProbe(id, {
    up: state.up,
    httpStatus: state.httpStatus,
    latencyMs: state.latencyMs,
    ...(state.error ? { error: state.error as Probe["error"] } : {}),
    checkedAt: state.checkedAt,
  });
}

/**
 * The dots of a Bookmark widget's links: each link's own address checked now (or within the last
 * 30 s), or what the watch pass recorded for the owner's Status check it names.
 *
 * A visitor of a public page gets a dot only where it reveals nothing private: a link's own
 * address only when it is public (anyone could open it and see), and a named check only when its
 * Status widget is on a public dashboard too (it shows visitors the same state there). The other
 * links get no dot at all rather than an "unknown" one, which would say a check exists.
 */
export function bookmarkStatusSource(ctx: AppContext) {
  const check = (url: string) =>
    ctx.upstream.cached(LINK_CHECKS, url, async (): Promise<Checked> => {
      const found = await probe(ctx.upstream, url, () => performance.now(), CHECK_TIMEOUT_MS);
      return { ...found, checkedAt: new Date(ctx.clock()).toISOString() };
    });

  /** `ownerId`: the widget's owner, whose checks it may name; `visitor`: a public page's view. */
  return async function load(
    query: BookmarkStatusQuery,
    ownerId: string,
    visitor: boolean,
  ): Promise<BookmarkStatusData> {
    const refs: CheckRef[] = query.links.flatMap((l) => (l.status === "self" ? [] : [l.status]));
    const named = await namedCheckStates(ctx.database.db, ownerId, refs, { publicOnly: visitor });
    const links = await Promise.all(
      query.links.map(async (link): Promise<LinkStatusResult | null> => {
        if (link.status !== "self") {
          const found = named.get(checkRefKey(link.status));
          return visitor && !found ? null : fromCheck(link.id, found);
        }
        if (visitor && !(await publicAddress(ctx.upstream, link.url))) return null;
        return fromProbe(link.id, await check(link.url));
      }),
    );
    return { links: links.filter((l): l is LinkStatusResult => l !== null) };
  };
}
