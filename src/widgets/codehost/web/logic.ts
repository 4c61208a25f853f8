import type { WorkItem } from "../../../web/lib/data-api";
import { type CodehostConfig, REPO_PATTERN_SOURCE } from "../contract";

export type CodehostTab = CodehostConfig["tab"];

const REPO = new RegExp(REPO_PATTERN_SOURCE);

/** "https://github.com/octo/alpha" or "octo/alpha" → "octo/alpha"; null when it is neither. */
export function normaliseRepo(input: string): string | null {
  const trimmed = input
    .trim()
    .replace(/^https?:\/\/(www\.)?github\.com\//i, "")
    .replace(/\/+$/, "")
    .replace(/\.git$/, "");
  return REPO.test(trimmed) ? trimmed : null;
}

export function itemLabels(
  items: readonly WorkItem[],
): { name: string; color: string | null; count: number }[] {
  const byName = new Map<string, { name: string; color: string | null; count: number }>();
  for (const item of items)
    for (const label of item.labels) {
      const entry = byName.get(label.name) ?? { ...label, count: 0 };
      entry.count++;
      byName.set(label.name, entry);
    }
  return [...byName.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

/** Search over title, repository, #number and labels; and an optional exact label. */
export function filterItems(items: readonly WorkItem[], search: string, label: string | null): WorkItem[] {
  const terms = search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return items.filter((item) => {
    if (label && !item.labels.some((l) => l.name === label)) return false;
    const text =
      `${item.title} ${item.repository} #${item.number} ${item.labels.map((l) => l.name).join(" ")}`.toLowerCase();
    return terms.every((t) => text.includes(t));
  });
}
