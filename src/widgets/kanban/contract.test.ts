import { describe, expect, it } from "vitest";
import { kanbanWidget } from "./contract.js";
import { testBoard as board } from "./fixture.js";

const parse = kanbanWidget.parse;

describe("Kanban config", () => {
  it("reads columns and cards", () => {
    expect(parse(board())).toEqual(board());
  });

  it("falls back to defaults for missing or malformed values", () => {
    expect(kanbanWidget.defaults().columns.map((c) => c.title)).toEqual(["To do", "Doing", "Done"]);
    expect(parse(null)).toEqual(kanbanWidget.defaults());
    expect(parse({ columns: "todo" })).toEqual(kanbanWidget.defaults());
    const parsed = parse({
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
    // A column without a usable colour takes the palette's colour for its position.
    expect(parsed.columns[0]?.color).toBe("#3b82f6");
    expect(parsed.columns[1]).toEqual({ id: "c", title: "C", color: "#abcdef", cards: [] });
  });

  it("makes card ids unique across columns", () => {
    const parsed = parse({
      columns: [
        { id: "a", title: "A", color: "#000", cards: [{ id: "x", title: "1" }] },
        { id: "b", title: "B", color: "#000", cards: [{ id: "x", title: "2" }] },
      ],
    });
    const ids = parsed.columns.flatMap((c) => c.cards.map((card) => card.id));
    expect(new Set(ids).size).toBe(2);
  });

  it("ends on repeated ids whose suffixed form is taken too", () => {
    const parsed = parse({
      columns: [
        {
          id: "a",
          title: "A",
          color: "#000",
          cards: [
            { id: "x-1", title: "1" },
            { id: "x", title: "2" },
          ],
        },
        {
          id: "b",
          title: "B",
          color: "#000",
          cards: [
            { id: "x", title: "3" },
            { id: "x-2", title: "4" },
          ],
        },
      ],
    });
    const ids = parsed.columns.flatMap((c) => c.cards.map((card) => card.id));
    expect(new Set(ids).size).toBe(4);
  });
});
