import { type Static, type TSchema, Type } from "@sinclair/typebox";
import type { IntegrationRequest } from "../../../server/integrations/types.js";
import { defineSource } from "../../../server/upstream/source.js";
import { type QueueEntry, type QueueState, UPCOMING_QUEUE_MAX, type UpcomingKind } from "../contract.js";

/**
 * The download queue of Sonarr and Radarr, `GET /api/v3/queue`: the same resource in both (their
 * QueueResource), Sonarr's with `series` and `episode`, Radarr's with `movie`. Paged, 10 a page
 * unless asked, and sorted *descending* unless a direction is named, so the widget names both:
 * one page of the downloads closest to done. No null fields are written; `sizeleft` and
 * `timeleft` are the lower-case ones Sonarr marks "will be replaced by SizeLeft/TimeLeft", so
 * both spellings are read.
 */

const Maybe = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const TEXT_MAX = 300;
const MESSAGES_MAX = 10;
const EPISODES_MAX = 100;

const QueueRecord = Type.Object({
  id: Type.Integer(),
  title: Maybe(Type.String()),
  status: Maybe(Type.String()),
  trackedDownloadStatus: Maybe(Type.String()),
  trackedDownloadState: Maybe(Type.String()),
  statusMessages: Maybe(
    Type.Array(Type.Object({ title: Maybe(Type.String()), messages: Maybe(Type.Array(Type.String())) })),
  ),
  errorMessage: Maybe(Type.String()),
  size: Maybe(Type.Number()),
  sizeleft: Maybe(Type.Number()),
  sizeLeft: Maybe(Type.Number()),
  timeleft: Maybe(Type.String()),
  timeLeft: Maybe(Type.String()),
  estimatedCompletionTime: Maybe(Type.String()),
  downloadId: Maybe(Type.String()),
  downloadClient: Maybe(Type.String()),
  series: Maybe(Type.Object({ title: Maybe(Type.String()) })),
  episode: Maybe(
    Type.Object({ seasonNumber: Type.Integer(), episodeNumber: Type.Integer(), title: Maybe(Type.String()) }),
  ),
  movie: Maybe(Type.Object({ title: Maybe(Type.String()), year: Maybe(Type.Integer()) })),
});
type QueueRecord = Static<typeof QueueRecord>;

export const QueueAnswer = defineSource(
  Type.Object({
    page: Type.Integer(),
    pageSize: Type.Integer(),
    totalRecords: Type.Integer(),
    records: Type.Array(QueueRecord),
  }),
);

/** The one page the widget asks: the downloads closest to done, with what they are for. */
export function queueRequest(kind: UpcomingKind): IntegrationRequest {
  const what: Record<string, string> =
    kind === "sonarr"
      ? { includeUnknownSeriesItems: "false", includeSeries: "true", includeEpisode: "true" }
      : { includeUnknownMovieItems: "false", includeMovie: "true" };
  return {
    path: "/api/v3/queue",
    query: {
      page: "1",
      pageSize: String(UPCOMING_QUEUE_MAX),
      sortKey: "timeleft",
      sortDirection: "ascending",
      ...what,
    },
    what: "its queue",
    headers: { accept: "application/json" },
  };
}

/** .NET's TimeSpan as they write it, "[-][d.]hh:mm:ss[.fffffff]", in whole seconds; null when unreadable. */
export function timeSpanSeconds(value: string | null | undefined): number | null {
  const match = value ? /^(-)?(?:(\d+)\.)?(\d{1,2}):(\d{2}):(\d{2})(?:\.\d+)?$/.exec(value) : null;
  if (!match) return null;
  const [, minus, days, hours, minutes, seconds] = match;
  const total = ((Number(days ?? 0) * 24 + Number(hours)) * 60 + Number(minutes)) * 60 + Number(seconds);
  return minus ? 0 : total;
}

/** What is happening to a download, from its queue `status` and its tracked state. */
export function queueState(
  status: string | null | undefined,
  tracked: string | null | undefined,
): QueueState {
  switch (tracked) {
    case "importPending":
    case "importing":
    case "importBlocked":
    case "imported":
      return tracked;
    case "failedPending":
    case "failed":
      return "failed";
  }
  switch (status) {
    case "downloading":
    case "paused":
    case "queued":
    case "failed":
    case "warning":
      return status;
    case "delay":
      return "delayed";
    case "downloadClientUnavailable":
      return "clientUnavailable";
    case "completed":
      return "importPending";
    default:
      return "unknown";
  }
}

const text = (value: string | null | undefined, max = TEXT_MAX) => (value ? value.slice(0, max) : null);

const health = (value: string | null | undefined): QueueEntry["health"] =>
  value === "warning" || value === "error" ? value : "ok";

/** The error first, then each status message's lines (or its title when it has none), each once. */
function messagesOf(record: QueueRecord): string[] {
  const lines = [record.errorMessage ?? null];
  for (const message of record.statusMessages ?? []) {
    const said = (message.messages ?? []).filter(Boolean);
    lines.push(...(said.length > 0 ? said : [message.title ?? null]));
  }
  const shown = lines.flatMap((line) => (line ? [line.slice(0, TEXT_MAX)] : []));
  return [...new Set(shown)].slice(0, MESSAGES_MAX);
}

/**
 * The page's records as the widget's entries: the records of one download (a season pack is a
 * record per episode, all with its size and progress) are one entry with its episodes in order.
 */
export function queueEntries(records: readonly QueueRecord[], integrationId: string): QueueEntry[] {
  const byDownload = new Map<string, QueueRecord[]>();
  for (const record of records) {
    const key = record.downloadId || `record-${record.id}`;
    const group = byDownload.get(key);
    if (group) group.push(record);
    else byDownload.set(key, [record]);
  }
  return [...byDownload].map(([id, group]) => {
    const first = group[0]!;
    const size = first.size ?? 0;
    const left = first.sizeleft ?? first.sizeLeft ?? null;
    const episodes = group
      .flatMap((r) =>
        r.episode ? [{ seasonNumber: r.episode.seasonNumber, episodeNumber: r.episode.episodeNumber }] : [],
      )
      .sort((a, b) => a.seasonNumber - b.seasonNumber || a.episodeNumber - b.episodeNumber)
      .slice(0, EPISODES_MAX);
    return {
      integrationId,
      id: id.slice(0, TEXT_MAX),
      title: text(first.title) ?? "",
      series: text(first.series?.title),
      episodes,
      episodeTitle: group.length === 1 ? text(first.episode?.title) : null,
      movie: text(first.movie?.title),
      year: first.movie?.year || null,
      progress: size > 0 && left !== null ? Math.min(1, Math.max(0, (size - left) / size)) : null,
      timeLeftSeconds: timeSpanSeconds(first.timeleft ?? first.timeLeft),
      estimatedCompletion: isoOf(first.estimatedCompletionTime),
      state: queueState(first.status, first.trackedDownloadState),
      health: group.reduce<QueueEntry["health"]>(
        (worst, r) =>
          worst === "error" || health(r.trackedDownloadStatus) === "ok"
            ? worst
            : health(r.trackedDownloadStatus),
        "ok",
      ),
      messages: [...new Set(group.flatMap(messagesOf))].slice(0, MESSAGES_MAX),
      downloadClient: text(first.downloadClient, 100),
    };
  });
}

function isoOf(value: string | null | undefined): string | null {
  const ms = value ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}
