import { type Static, Type } from "@sinclair/typebox";
import { defineSource } from "../../../server/upstream/source.js";
import type { QbittorrentData, QbStateGroup, QbTorrent } from "../contract.js";

/** qBittorrent's "never" for an ETA (MAX_ETA, 100 days in seconds). */
const NO_ETA = 8_640_000;
const NAME_MAX = 300;

export const TransferInfo = defineSource(
  Type.Object({
    dl_info_speed: Type.Number(),
    up_info_speed: Type.Number(),
    dl_info_data: Type.Number(),
    up_info_data: Type.Number(),
    dl_rate_limit: Type.Optional(Type.Number()),
    up_rate_limit: Type.Optional(Type.Number()),
    connection_status: Type.Optional(Type.String()),
  }),
);

export const TorrentList = defineSource(
  Type.Array(
    Type.Object({
      hash: Type.String(),
      name: Type.String(),
      state: Type.String(),
      progress: Type.Number(),
      dlspeed: Type.Number(),
      upspeed: Type.Number(),
      eta: Type.Number(),
      size: Type.Number(),
    }),
  ),
);
type RawTorrent = Static<typeof TorrentList.schema>[number];

/** 5.x state names, and 4.x's `paused…` (5.0 renamed them `stopped…`). */
export function stateGroup(state: string): QbStateGroup {
  if (/^(downloading|forcedDL)$/.test(state)) return "downloading";
  if (/^(uploading|forcedUP)$/.test(state)) return "seeding";
  if (/^stalled(DL|UP)$/.test(state)) return "stalled";
  if (/^queued(DL|UP)$/.test(state)) return "queued";
  if (/^(checking(DL|UP|ResumeData)|allocating)$/.test(state)) return "checking";
  if (/^(forcedM|m)etaDL$/.test(state)) return "metadata";
  if (state === "moving") return "moving";
  if (/^(stopped|paused)(DL|UP)$/.test(state)) return "stopped";
  if (state === "error" || state === "missingFiles") return "error";
  return "unknown";
}

const downloads = (group: QbStateGroup) => group === "downloading" || group === "metadata";

function shown(raw: RawTorrent): QbTorrent {
  const group = stateGroup(raw.state);
  const done = raw.progress >= 1;
  return {
    hash: raw.hash.slice(0, 64),
    name: raw.name.slice(0, NAME_MAX),
    progress: Math.min(Math.max(raw.progress, 0), 1),
    downloadSpeed: Math.max(raw.dlspeed, 0),
    uploadSpeed: Math.max(raw.upspeed, 0),
    eta: done || raw.eta < 0 || raw.eta >= NO_ETA ? null : raw.eta,
    size: Math.max(raw.size, 0),
    state: raw.state.slice(0, 40),
    group,
  };
}

const CONNECTIONS = ["connected", "firewalled", "disconnected"] as const;

/**
 * The widget's data from the two answers: every active torrent counted, downloads listed first
 * (fastest first), then the rest by upload speed; the caller cuts the list to what a widget shows.
 */
export function qbittorrentData(
  transfer: Static<typeof TransferInfo.schema>,
  active: readonly RawTorrent[],
  readAtMost: number,
): QbittorrentData {
  const torrents = active.map(shown).sort((a, b) => {
    const byKind = Number(downloads(b.group)) - Number(downloads(a.group));
    return byKind || b.downloadSpeed - a.downloadSpeed || b.uploadSpeed - a.uploadSpeed;
  });
  const limit = (value: number | undefined) => (value && value > 0 ? value : null);
  const status = transfer.connection_status;
  return {
    transfer: {
      downloadSpeed: Math.max(transfer.dl_info_speed, 0),
      uploadSpeed: Math.max(transfer.up_info_speed, 0),
      downloaded: Math.max(transfer.dl_info_data, 0),
      uploaded: Math.max(transfer.up_info_data, 0),
      downloadLimit: limit(transfer.dl_rate_limit),
      uploadLimit: limit(transfer.up_rate_limit),
      connection: CONNECTIONS.find((c) => c === status) ?? "unknown",
    },
    // As qBittorrent's own sidebar counts: downloading until complete, seeding after.
    counts: {
      active: torrents.length,
      downloading: torrents.filter((t) => t.progress < 1).length,
      seeding: torrents.filter((t) => t.progress >= 1).length,
    },
    countsAtLeast: active.length >= readAtMost,
    torrents,
  };
}
