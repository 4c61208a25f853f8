import type { AppContext } from "../../../server/context.js";
import { notFoundBecause, ProblemError } from "../../../server/http/errors.js";
import { answeredJson } from "../../../server/integrations/kit.js";
import type { UsableIntegration } from "../../../server/integrations/types.js";
import type { CachePolicy } from "../../../server/upstream/upstream.js";
import type { QbittorrentData, QbittorrentQuery } from "../contract.js";
import { connectionKey, refusals } from "./refusals.js";
import { qbittorrentData, TorrentList, TransferInfo } from "./torrents.js";

/**
 * Kept 5 s per integration: speeds change by the second, and every widget and viewer of one
 * qBittorrent then shares two calls (and one session) per 5 s.
 */
export const QBT_ANSWERS: CachePolicy = {
  kind: "qbittorrent",
  fresh: 5_000,
  failuresRemembered: true,
  staleIfError: false,
};

/**
 * Active torrents read at most: a seedbox may have thousands, each near 2 KB of JSON, and no
 * widget shows more than 50. The counts then say "at least".
 */
export const QBT_ACTIVE_READ_MAX = 500;

async function usableQbittorrent(ctx: AppContext, ownerId: string, integrationId: string) {
  try {
    return await ctx.integrations.usable(ownerId, integrationId, "qbittorrent");
  } catch (error) {
    if (error instanceof ProblemError && error.status === 404)
      throw notFoundBecause("This qBittorrent integration is gone or not yours");
    throw error;
  }
}

async function fetchData(ctx: AppContext, integration: UsableIntegration): Promise<QbittorrentData> {
  const ask = (path: string, what: string, query?: Record<string, string>) =>
    ctx.integrations.call(integration, { path, what, query });
  // In parallel: the service signs in once for both when there is no session yet.
  const [transfer, torrents] = await Promise.all([
    ask("/api/v2/transfer/info", "its transfer speeds"),
    ask("/api/v2/torrents/info", "its active torrents", {
      filter: "active",
      sort: "dlspeed",
      reverse: "true",
      limit: String(QBT_ACTIVE_READ_MAX),
    }),
  ]);
  const info = TransferInfo.parse(answeredJson(transfer, integration.name), transfer);
  const active = TorrentList.parse(answeredJson(torrents, integration.name), torrents);
  return qbittorrentData(info, active.slice(0, QBT_ACTIVE_READ_MAX), QBT_ACTIVE_READ_MAX);
}

/** The speeds and active torrents a qBittorrent widget shows, through its owner's integration. */
export function qbittorrentSource(ctx: AppContext) {
  return async function load(query: QbittorrentQuery, ownerId: string): Promise<QbittorrentData> {
    const integration = await usableQbittorrent(ctx, ownerId, query.integrationId);
    const memory = refusals(ctx);
    // Refused credentials are not tried again, whatever the cache holds.
    memory.check(integration);
    const data = await ctx.upstream.cached(QBT_ANSWERS, connectionKey(integration), () =>
      memory.guard(integration, () => fetchData(ctx, integration)),
    );
    return { ...data, torrents: data.torrents.slice(0, query.torrentsShown) };
  };
}
