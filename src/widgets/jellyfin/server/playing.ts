import { type Static, Type } from "@sinclair/typebox";
import { defineSource } from "../../../server/upstream/source.js";
import { JELLYFIN_SESSIONS_MAX, type JellyfinPlaying } from "../contract.js";

const TICKS_PER_SECOND = 10_000_000;
const TEXT_MAX = 200;

const Int = Type.Optional(Type.Union([Type.Integer(), Type.Null()]));
const Str = Type.Optional(Type.Union([Type.String(), Type.Null()]));

/** `GET /Sessions`: only the fields read here are checked; Jellyfin sends many more. */
export const SessionList = defineSource(
  Type.Array(
    Type.Object({
      Id: Type.String(),
      UserName: Str,
      Client: Str,
      DeviceName: Str,
      NowPlayingItem: Type.Optional(
        Type.Union([
          Type.Object({
            Name: Str,
            Type: Str,
            SeriesName: Str,
            ParentIndexNumber: Int,
            IndexNumber: Int,
            RunTimeTicks: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
            Artists: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
          }),
          Type.Null(),
        ]),
      ),
      PlayState: Type.Optional(
        Type.Union([
          Type.Object({
            PositionTicks: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
            IsPaused: Type.Optional(Type.Boolean()),
            PlayMethod: Str,
          }),
          Type.Null(),
        ]),
      ),
    }),
  ),
);
type Session = Static<typeof SessionList.schema>[number];

const text = (value: string | null | undefined) => (value ? value.slice(0, TEXT_MAX) : null);

function playing(session: Session, users: boolean): JellyfinPlaying {
  const item = session.NowPlayingItem!;
  const state = session.PlayState ?? {};
  const runtime = item.RunTimeTicks && item.RunTimeTicks > 0 ? item.RunTimeTicks / TICKS_PER_SECOND : null;
  const position = Math.max((state.PositionTicks ?? 0) / TICKS_PER_SECOND, 0);
  const isEpisode = item.Type === "Episode";
  return {
    id: session.Id.slice(0, 64),
    user: users ? text(session.UserName) : null,
    device: users ? text(session.DeviceName) : null,
    client: users ? text(session.Client) : null,
    title: text(isEpisode ? (item.SeriesName ?? item.Name) : item.Name) ?? "",
    episode: isEpisode
      ? {
          season: item.ParentIndexNumber ?? null,
          number: item.IndexNumber ?? null,
          name: text(item.Name) ?? "",
        }
      : null,
    artist: item.Artists && item.Artists.length > 0 ? text(item.Artists.join(", ")) : null,
    type: text(item.Type) ?? "Unknown",
    positionSeconds: Math.round(position),
    runtimeSeconds: runtime === null ? null : Math.round(runtime),
    progress: runtime === null ? null : Math.min(position / runtime, 1),
    paused: state.IsPaused === true,
    transcoding: state.PlayMethod === "Transcode",
  };
}

/** The sessions playing something (an open app that plays nothing has no NowPlayingItem), in Jellyfin's order. */
export function nowPlaying(sessions: readonly Session[], users: boolean) {
  const all = sessions.filter((s) => s.NowPlayingItem);
  return {
    nowPlaying: all.slice(0, JELLYFIN_SESSIONS_MAX).map((s) => playing(s, users)),
    playingTotal: all.length,
  };
}
