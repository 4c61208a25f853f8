import { afterEach, describe, expect, it } from "vitest";
import { switchLanguage } from "../../../web/i18n/i18n";
import { describeDay, heatmapGrid, heatmapStats, weekdayLabels } from "./logic";

describe("heatmap shaping", () => {
  // 2026-03-01 is a Sunday.
  const days = Array.from({ length: 40 }, (_, i) => {
    const date = new Date(Date.UTC(2026, 1, 25 + i)).toISOString().slice(0, 10);
    return { date, count: i % 4, level: i % 4 };
  });

  it("lays days out in Sunday-first weeks with month labels", () => {
    const grid = heatmapGrid(days, "en-GB");
    // Feb 25 is a Wednesday: the first column starts three rows down.
    expect(grid.weeks[0]!.slice(0, 3)).toEqual([null, null, null]);
    expect(grid.weeks[0]![3]?.date).toBe("2026-02-25");
    expect(grid.weeks[1]![0]?.date).toBe("2026-03-01");
    expect(grid.weeks.flat().filter(Boolean)).toHaveLength(40);
    // February's four days give way to March's label; April gets its own.
    expect(grid.months).toEqual([
      { week: 1, label: "Mar" },
      { week: 5, label: "Apr" },
    ]);
  });

  it("clamps levels into 0–4", () => {
    const grid = heatmapGrid([{ date: "2026-03-01", count: 9, level: 7 }], "en");
    expect(grid.weeks[0]![0]?.level).toBe(4);
  });

  it("counts streaks, active days and the best day; an empty today keeps the streak", () => {
    const stats = heatmapStats({
      totalContributions: 12,
      days: [
        { date: "2026-03-01", count: 2, level: 1 },
        { date: "2026-03-02", count: 0, level: 0 },
        { date: "2026-03-03", count: 1, level: 1 },
        { date: "2026-03-04", count: 5, level: 4 },
        { date: "2026-03-05", count: 4, level: 3 },
        { date: "2026-03-06", count: 0, level: 0 },
      ],
    });
    expect(stats).toMatchObject({ total: 12, longestStreak: 3, currentStreak: 3, activeDays: 4 });
    expect(stats.best?.date).toBe("2026-03-04");
    expect(heatmapStats({ totalContributions: 0, days: [] })).toMatchObject({ longestStreak: 0, best: null });
  });
});

describe("heatmap words", () => {
  afterEach(async () => {
    await switchLanguage("en");
  });

  it("names a day's contributions with plurals, in English and in German", async () => {
    expect(describeDay({ date: "2026-02-25", count: 0 }, "en-GB")).toBe(
      "No contributions on Wed, 25 Feb 2026",
    );
    expect(describeDay({ date: "2026-02-25", count: 1 }, "en-GB")).toBe("1 contribution on Wed, 25 Feb 2026");
    await switchLanguage("de");
    expect(describeDay({ date: "2026-02-25", count: 1 }, "de")).toBe("1 Beitrag am Mi., 25. Feb. 2026");
    expect(describeDay({ date: "2026-02-25", count: 1234 }, "de")).toBe(
      "1.234 Beiträge am Mi., 25. Feb. 2026",
    );
    expect(describeDay({ date: "2026-02-25", count: 0 }, "de")).toBe("Keine Beiträge am Mi., 25. Feb. 2026");
    expect(weekdayLabels("de").map((w) => w.label)).toEqual(["Mo", "Mi", "Fr"]);
    const march = Array.from({ length: 40 }, (_, i) => ({
      date: new Date(Date.UTC(2026, 1, 25 + i)).toISOString().slice(0, 10),
      count: 1,
      level: 1,
    }));
    expect(heatmapGrid(march, "de").months.map((m) => m.label)).toEqual(["Mär", "Apr"]);
  });
});
