import { describe, expect, it } from "vitest";
import type { QueueEntry, UpcomingEpisode, UpcomingMovie } from "../contract";
import { episodesLabel, queueName, releaseWords, timeLeftWords, upcomingDays } from "./logic";

const episode = (id: string, airDateUtc: string): UpcomingEpisode => ({
  type: "episode",
  integrationId: "s",
  id,
  series: "Severance",
  seasonNumber: 2,
  episodeNumber: 10,
  title: "Cold Harbor",
  airDateUtc,
  runtimeMinutes: 50,
  hasFile: false,
  finaleType: null,
});

const movie = (id: string, day: string, more: Partial<UpcomingMovie> = {}): UpcomingMovie => ({
  type: "movie",
  integrationId: "r",
  id,
  title: "Dune: Part Three",
  year: 2026,
  day,
  inCinemas: day,
  digitalRelease: null,
  physicalRelease: null,
  hasFile: false,
  ...more,
});

describe("Upcoming Media logic", () => {
  it("names a download's episodes: one, a run in a season, or the first and how many more", () => {
    expect(episodesLabel([])).toBeNull();
    expect(episodesLabel([{ seasonNumber: 2, episodeNumber: 9 }])).toBe("S02E09");
    const run = [3, 4, 5].map((episodeNumber) => ({ seasonNumber: 5, episodeNumber }));
    expect(episodesLabel(run)).toBe("S05E03–E05");
    expect(
      episodesLabel([
        { seasonNumber: 5, episodeNumber: 8 },
        { seasonNumber: 6, episodeNumber: 1 },
      ]),
    ).toBe("S05E08 +1");
    const entry = {
      series: null,
      movie: "Mickey 17",
      year: 2025,
      episodes: [],
      title: "x",
    } as unknown as QueueEntry;
    expect(queueName(entry)).toEqual({ name: "Mickey 17 (2025)", detail: null });
  });

  it("says time left in minutes, hours or days, and nothing when the client does not know", () => {
    expect(timeLeftWords(null)).toBeNull();
    expect(timeLeftWords(20)).toBe("less than a minute left");
    expect(timeLeftWords(750)).toBe("13 min left");
    expect(timeLeftWords(3 * 3600 + 300)).toBe("3 h 5 min left");
    expect(timeLeftWords(93_784)).toBe("1 d 2 h left");
    // A finished download's "00:00:00", a paused one's guess: not said.
    expect(timeLeftWords(0, "importBlocked")).toBeNull();
    expect(timeLeftWords(600, "paused")).toBeNull();
  });

  it("lists episodes on their day in the reader's zone, movies on their release day everywhere, movies first", () => {
    const now = Date.parse("2026-11-28T10:00:00Z");
    // 02:00 UTC on the 29th is still the 28th in New York, the 29th in Berlin.
    const entries = [
      episode("late", "2026-11-29T02:00:00Z"),
      movie("m", "2026-11-29"),
      episode("old", "2026-11-27T02:00:00Z"),
    ];
    const berlin = upcomingDays(entries, now, 7, "Europe/Berlin", "en");
    expect(berlin.map((d) => [d.label, d.entries.map((e) => e.id)])).toEqual([["Tomorrow", ["m", "late"]]]);
    const newYork = upcomingDays(entries, now, 7, "America/New_York", "en");
    expect(newYork.map((d) => [d.label, d.entries.map((e) => e.id)])).toEqual([
      ["Today", ["late"]],
      ["Tomorrow", ["m"]],
    ]);
    // Past the last day asked: left out.
    expect(upcomingDays([movie("far", "2026-12-06")], now, 7, "UTC", "en")).toEqual([]);
  });

  it("names each release day Radarr gives, with the year only when it is another", () => {
    const words = releaseWords(
      movie("m", "2026-12-03", { digitalRelease: "2027-01-27", physicalRelease: null }),
      "2026-11-28",
      "en-GB",
    );
    expect(words).toEqual(["In cinemas 3 Dec", "Digital 27 Jan 2027"]);
  });
});
