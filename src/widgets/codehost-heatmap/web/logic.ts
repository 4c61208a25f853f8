import { t } from "../../../web/i18n/i18n";
import type { Contributions } from "../../../web/lib/data-api";

export interface HeatmapDay {
  date: string;
  count: number;
  level: number;
}

export interface HeatmapGrid {
  /** Columns of seven rows, Sunday first; null where the year has no day (first and last week). */
  weeks: (HeatmapDay | null)[][];
  /** A label over the first column in which a month begins. */
  months: { week: number; label: string }[];
}

const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

export function heatmapGrid(days: readonly HeatmapDay[], locale: string): HeatmapGrid {
  const sorted = [...days].sort((a, b) => a.date.localeCompare(b.date));
  const weeks: (HeatmapDay | null)[][] = [];
  const months: { week: number; label: string }[] = [];
  let lastMonth = "";
  for (const day of sorted) {
    const row = weekday(day.date);
    if (weeks.length === 0 || row === 0) weeks.push(Array<HeatmapDay | null>(7).fill(null));
    weeks[weeks.length - 1]![row] = { ...day, level: Math.max(0, Math.min(4, Math.round(day.level))) };
    const month = day.date.slice(0, 7);
    if (month !== lastMonth) {
      lastMonth = month;
      const week = weeks.length - 1;
      const label = new Intl.DateTimeFormat(locale, { month: "short", timeZone: "UTC" }).format(
        new Date(`${month}-15T00:00:00Z`),
      );
      const last = months[months.length - 1];
      // Labels need three columns of room; the partial first month gives way to the next one.
      if (!last || week - last.week >= 3) months.push({ week, label });
      else if (months.length === 1 && last.week === 0) months[0] = { week, label };
    }
  }
  return { weeks, months };
}

export interface HeatmapStats {
  total: number;
  longestStreak: number;
  currentStreak: number;
  best: HeatmapDay | null;
  activeDays: number;
}

export function heatmapStats(data: Pick<Contributions, "totalContributions" | "days">): HeatmapStats {
  const sorted = [...data.days].sort((a, b) => a.date.localeCompare(b.date));
  let longest = 0;
  let run = 0;
  let best: HeatmapDay | null = null;
  let active = 0;
  for (const day of sorted) {
    if (day.count > 0) {
      run++;
      active++;
      longest = Math.max(longest, run);
      if (!best || day.count > best.count) best = day;
    } else run = 0;
  }
  // Today without contributions yet does not break the current streak.
  let current = 0;
  for (let i = sorted.length - 1; i >= 0; i--) {
    const day = sorted[i]!;
    if (day.count > 0) current++;
    else if (i === sorted.length - 1) continue;
    else break;
  }
  return {
    total: data.totalContributions,
    longestStreak: longest,
    currentStreak: current,
    best,
    activeDays: active,
  };
}

/** "3 contributions on Wed, 25 Feb 2026": a day's cell, named for a tooltip and screen readers. */
export function describeDay(day: Pick<HeatmapDay, "date" | "count">, locale: string): string {
  // A date key names a calendar day: noon UTC shows that day in every language.
  const date = new Intl.DateTimeFormat(locale, {
    timeZone: "UTC",
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
  }).format(new Date(`${day.date}T12:00:00Z`));
  return day.count === 0
    ? t("widgets.codehostHeatmap.dayNone", { date })
    : t("widgets.codehostHeatmap.day", { count: day.count, date });
}

/** The weekday names on the rows the heatmap labels (Monday, Wednesday, Friday), short. */
export function weekdayLabels(locale: string): { row: number; label: string }[] {
  const format = new Intl.DateTimeFormat(locale, { timeZone: "UTC", weekday: "short" });
  // 2026-03-01 is a Sunday, the grid's row 0.
  return [1, 3, 5].map((row) => ({ row, label: format.format(new Date(Date.UTC(2026, 2, 1 + row, 12))) }));
}
