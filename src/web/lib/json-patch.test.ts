import { describe, expect, it } from "vitest";
import { applyJsonPatch } from "./json-patch";

const doc = {
  todos: [
    { id: "a", done: false },
    { id: "b", done: true },
  ],
  title: "List",
};

describe("applyJsonPatch", () => {
  it("adds, replaces and removes, leaving the input alone", () => {
    const result = applyJsonPatch(doc, [
      { op: "add", path: "/todos/-", value: { id: "c", done: false } },
      { op: "replace", path: "/todos/0/done", value: true },
      { op: "remove", path: "/title" },
      { op: "add", path: "/todos/0/dueAt", value: "2026-01-01T00:00:00.000Z" },
    ]);
    expect(result).toEqual({
      ok: true,
      value: {
        todos: [
          { id: "a", done: true, dueAt: "2026-01-01T00:00:00.000Z" },
          { id: "b", done: true },
          { id: "c", done: false },
        ],
      },
    });
    expect(doc.todos).toHaveLength(2);
    expect(doc.title).toBe("List");
  });

  it("moves as RFC 6902 says: out first, then in at the index of the shorter list", () => {
    const list = { items: ["a", "b", "c", "d"] };
    expect(applyJsonPatch(list, [{ op: "move", from: "/items/0", path: "/items/2" }])).toEqual({
      ok: true,
      value: { items: ["b", "c", "a", "d"] },
    });
    expect(applyJsonPatch(list, [{ op: "move", from: "/items/3", path: "/items/0" }])).toEqual({
      ok: true,
      value: { items: ["d", "a", "b", "c"] },
    });
    const board = { cols: [{ cards: ["x", "y"] }, { cards: ["z"] }] };
    expect(applyJsonPatch(board, [{ op: "move", from: "/cols/0/cards/1", path: "/cols/1/cards/0" }])).toEqual(
      {
        ok: true,
        value: { cols: [{ cards: ["x"] }, { cards: ["y", "z"] }] },
      },
    );
  });

  it("applies nothing when a test fails or a place is missing", () => {
    expect(
      applyJsonPatch(doc, [
        { op: "replace", path: "/title", value: "Changed" },
        { op: "test", path: "/todos/0/id", value: "b" },
      ]),
    ).toEqual({ ok: false, failed: 1 });
    expect(applyJsonPatch(doc, [{ op: "remove", path: "/todos/5" }])).toEqual({ ok: false, failed: 0 });
    expect(applyJsonPatch(doc, [{ op: "replace", path: "/missing", value: 1 }])).toEqual({
      ok: false,
      failed: 0,
    });
    expect(applyJsonPatch(doc, [{ op: "add", path: "/todos/9", value: 1 }])).toEqual({
      ok: false,
      failed: 0,
    });
  });

  it("tests values whatever the order of their members, and reads ~0 and ~1", () => {
    expect(
      applyJsonPatch({ a: { x: 1, y: 2 } }, [{ op: "test", path: "/a", value: { y: 2, x: 1 } }]).ok,
    ).toBe(true);
    expect(applyJsonPatch({ "a/b": { "~": 1 } }, [{ op: "test", path: "/a~1b/~0", value: 1 }]).ok).toBe(true);
  });
});
