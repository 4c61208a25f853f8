import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyJsonPatch } from "../../../web/lib/json-patch";
import type { KanbanConfig } from "../contract";
import {
  addCardOps,
  addColumnOps,
  editCardOps,
  moveCard,
  moveCardOps,
  removeCardOps,
  removeColumnOps,
  setColumnOps,
} from "./logic";

const board: KanbanConfig = {
  columns: [
    {
      id: "todo",
      title: "To do",
      color: "#64748b",
      cards: [
        { id: "a", title: "A" },
        { id: "b", title: "B" },
        { id: "c", title: "C" },
      ],
    },
    { id: "doing", title: "Doing", color: "#3b82f6", cards: [{ id: "d", title: "D" }] },
    { id: "done", title: "Done", color: "#10b981", cards: [] },
  ],
};

describe("kanban changes as JSON Patch", () => {
  it("moves a card as the board's drag and drop does, anywhere", () => {
    const cards = ["a", "b", "c", "d"];
    const columns = ["todo", "doing", "done"];
    fc.assert(
      fc.property(
        fc.constantFrom(...cards),
        fc.constantFrom(...columns),
        fc.integer({ min: 0, max: 4 }),
        (card, column, index) => {
          const expected = moveCard(board, card, column, index);
          expect(applyJsonPatch(board, moveCardOps(board, card, column, index))).toEqual({
            ok: true,
            value: expected,
          });
        },
      ),
    );
  });

  it("says adding, renaming and removing as operations on one column or card", () => {
    const card = { id: "e", title: "E" };
    const column = { id: "later", title: "Later", color: "#ef4444", cards: [] };
    const apply = (ops: ReturnType<typeof addCardOps>) => applyJsonPatch(board, ops);
    expect(apply(addCardOps(board, "done", card))).toMatchObject({
      value: { columns: [{}, {}, { cards: [card] }] },
    });
    expect(apply(addColumnOps(column))).toMatchObject({ value: { columns: [{}, {}, {}, column] } });
    expect(apply(setColumnOps(board, "doing", { title: "Busy", color: "#ef4444" }))).toMatchObject({
      value: { columns: [{}, { title: "Busy", color: "#ef4444" }, {}] },
    });
    expect(apply(editCardOps(board, "d", "D!"))).toMatchObject({
      value: { columns: [{}, { cards: [{ id: "d", title: "D!" }] }, {}] },
    });
    expect(apply(removeCardOps(board, "b"))).toMatchObject({
      value: { columns: [{ cards: [{ id: "a" }, { id: "c" }] }, {}, {}] },
    });
    expect(apply(removeColumnOps(board, "todo"))).toMatchObject({
      value: { columns: [{ id: "doing" }, { id: "done" }] },
    });
  });

  it("is refused where the board moved under it", () => {
    const moved = moveCard(board, "a", "done", 0);
    expect(applyJsonPatch(moved, moveCardOps(board, "b", "doing", 0)).ok).toBe(false);
    expect(moveCardOps(board, "zz", "doing", 0)).toEqual([]);
    expect(moveCardOps(board, "a", "todo", 0)).toEqual([]);
  });
});
