import { describe, expect, it } from "vitest";
import type { WorkItem } from "../../../web/lib/data-api";
import { filterItems, itemLabels, normaliseRepo } from "./logic";

describe("Codehost repositories", () => {
  it("normalises typed repositories", () => {
    expect(normaliseRepo(" https://github.com/octo/alpha.git/ ")).toBe("octo/alpha");
    expect(normaliseRepo("octo/alpha")).toBe("octo/alpha");
    expect(normaliseRepo("octo")).toBeNull();
    expect(normaliseRepo("https://gitlab.com/octo/alpha")).toBeNull();
  });
});

describe("work item filters", () => {
  const item = (id: number, title: string, repository: string, labels: string[] = []): WorkItem => ({
    id,
    number: id,
    title,
    repository,
    url: `https://github.com/${repository}/issues/${id}`,
    state: "open",
    draft: false,
    isPullRequest: false,
    author: null,
    labels: labels.map((name) => ({ name, color: "d73a4a" })),
    comments: 0,
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-02T00:00:00Z",
  });
  const items = [
    item(1, "Login redirect loops", "octo/alpha", ["bug"]),
    item(2, "Dark mode", "octo/beta", ["feature", "ui"]),
    item(3, "Crash on save", "octo/alpha", ["bug", "ui"]),
  ];

  it("searches title, repository, number and labels, all terms at once", () => {
    expect(filterItems(items, "", null)).toHaveLength(3);
    expect(filterItems(items, "beta", null).map((i) => i.id)).toEqual([2]);
    expect(filterItems(items, "alpha CRASH", null).map((i) => i.id)).toEqual([3]);
    expect(filterItems(items, "#1", null).map((i) => i.id)).toEqual([1]);
    expect(filterItems(items, "feature", null).map((i) => i.id)).toEqual([2]);
    expect(filterItems(items, "", "bug").map((i) => i.id)).toEqual([1, 3]);
    expect(filterItems(items, "login", "ui")).toEqual([]);
  });

  it("lists labels by how often they appear", () => {
    expect(itemLabels(items).map((l) => [l.name, l.count])).toEqual([
      ["bug", 2],
      ["ui", 2],
      ["feature", 1],
    ]);
  });
});
