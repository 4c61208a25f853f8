import { t } from "../../../web/i18n/i18n";
import { ApiError, describeError } from "../../../web/lib/api";
import type { JellyfinLatest, JellyfinPlaying } from "../contract";

/** 932 → "15:32", 3725 → "1:02:05": a player's clock. */
export function playerClock(seconds: number): string {
  const s = Math.max(Math.floor(seconds), 0);
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** "S2:E3", as Jellyfin's own apps write an episode's place; null when it has none. */
export function episodeCode(season: number | null, number: number | null): string | null {
  if (season === null && number === null) return null;
  return [season !== null ? `S${season}` : null, number !== null ? `E${number}` : null]
    .filter(Boolean)
    .join(":");
}

/** The line under a playing title: the episode, or the artists. */
export function playingSubtitle(playing: JellyfinPlaying): string | null {
  if (playing.episode) {
    const code = episodeCode(playing.episode.season, playing.episode.number);
    return code ? `${code} · ${playing.episode.name}` : playing.episode.name;
  }
  return playing.artist;
}

/** A latest addition's caption: its name and one fact (year, episode, how many new). */
export function latestCaption(item: JellyfinLatest): { name: string; detail: string | null } {
  if (item.type === "Episode") {
    const code = episodeCode(item.season, item.number);
    return { name: item.seriesName ?? item.name, detail: code ? `${code} · ${item.name}` : item.name };
  }
  if (item.count !== null)
    return { name: item.name, detail: t("widgets.jellyfin.newEpisodes", { count: item.count }) };
  return { name: item.name, detail: item.year !== null ? String(item.year) : null };
}

/** Why the widget has nothing to show, in the reader's language, with the server's detail as fine print. */
export function describeJellyfinError(error: unknown): { message: string; detail: string | null } {
  if (!(error instanceof ApiError)) return { message: describeError(error), detail: null };
  const detail = error.problem?.detail ?? null;
  switch (error.code) {
    case "not_found":
      return { message: t("widgets.jellyfin.errors.notFound"), detail };
    case "address_not_allowed":
      return { message: t("widgets.jellyfin.errors.private"), detail };
    case "upstream_timeout":
      return { message: t("widgets.jellyfin.errors.slow"), detail };
    case "upstream_failed":
      return { message: t("widgets.jellyfin.errors.failed"), detail };
    default:
      return { message: describeError(error), detail: null };
  }
}
