import { describe, expect, it } from "vitest";
import { defaultKanbanConfig, type KanbanConfig, moveCard, parseKanbanConfig } from "./config";

const board = (): KanbanConfig => ({
  columns: [
    {
      id: "a",
      title: "A",
      color: "#111111",
      cards: [
        { id: "1", title: "one" },
        { id: "2", title: "two" },
        { id: "3", title: "three" },
      ],
    },
    { id: "b", title: "B", color: "#222", cards: [{ id: "4", title: "four" }] },
  ],
});

describe("Kanban config", () => {
  it("reads columns and cards", () => {
    expect(parseKanbanConfig(board())).toEqual(board());
  });

  it("falls back to defaults for missing or malformed values", () => {
    expect(parseKanbanConfig(null)).toEqual(defaultKanbanConfig());
    expect(parseKanbanConfig({ columns: "todo" })).toEqual(defaultKanbanConfig());
    const parsed = parseKanbanConfig({
      columns: [
        7,
        { title: "  ", color: "red", cards: [{ title: "ok" }, { title: 1 }, "x"] },
        { id: "c", title: "C", color: "#abcdef", cards: "none" },
      ],
    });
    expect(parsed.columns).toHaveLength(2);
    expect(parsed.columns[0]).toMatchObject({
      id: "column-1",
      title: "Untitled",
      cards: [{ id: "card-1-0", title: "ok" }],
    });
    expect(parsed.columns[0]?.color).toMatch(/^#[0-9a-f]{6}$/);
    expect(parsed.columns[1]).toEqual({ id: "c", title: "C", color: "#abcdef", cards: [] });
  });

  it("makes card ids unique across columns", () => {
    const parsed = parseKanbanConfig({
      columns: [
        { id: "a", title: "A", color: "#000", cards: [{ id: "x", title: "1" }] },
        { id: "b", title: "B", color: "#000", cards: [{ id: "x", title: "2" }] },
      ],
    });
    const ids = parsed.columns.flatMap((c) => c.cards.map((card) => card.id));
    expect(new Set(ids).size).toBe(2);
  });
});

describe("moving cards", () => {
  const titles = (c: KanbanConfig) => c.columns.map((col) => col.cards.map((card) => card.id).join(""));

  it("reorders within a column (drop before a card below and above)", () => {
    expect(titles(moveCard(board(), "1", "a", 3))).toEqual(["231", "4"]);
    expect(titles(moveCard(board(), "1", "a", 2))).toEqual(["213", "4"]);
    expect(titles(moveCard(board(), "3", "a", 0))).toEqual(["312", "4"]);
    expect(moveCard(board(), "2", "a", 1)).toEqual(board());
  });

  it("moves across columns at the given position", () => {
    expect(titles(moveCard(board(), "2", "b", 0))).toEqual(["13", "24"]);
    expect(titles(moveCard(board(), "2", "b", 1))).toEqual(["13", "42"]);
    expect(titles(moveCard(board(), "4", "a", 99))).toEqual(["1234", ""]);
  });

  it("ignores unknown cards and columns", () => {
    expect(moveCard(board(), "nope", "a", 0)).toEqual(board());
    expect(moveCard(board(), "1", "nope", 0)).toEqual(board());
  });
});
