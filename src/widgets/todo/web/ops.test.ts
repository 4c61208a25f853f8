import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyJsonPatch } from "../../../web/lib/json-patch";
import { moveItem } from "../../../web/lib/reorder";
import type { TodoConfig } from "../contract";
import {
  addTodo,
  addTodoOps,
  clearDone,
  clearDoneOps,
  editTodo,
  editTodoOps,
  moveTodoOps,
  removeTodo,
  removeTodoOps,
  setDone,
  setDoneOps,
  setDue,
  setDueOps,
} from "./logic";

const todo = (id: string, done = false, dueAt?: string) => ({
  id,
  text: `item ${id}`,
  done,
  createdAt: "2026-01-01T00:00:00.000Z",
  ...(dueAt ? { dueAt } : {}),
});
const list: TodoConfig = {
  todos: [todo("a"), todo("b", true), todo("c", false, "2026-02-01T09:00:00.000Z"), todo("d", true)],
};

/** The operations, applied as the server applies them, give what the tab draws. */
const same = (config: TodoConfig, apply: (c: TodoConfig) => TodoConfig, ops: ReturnType<typeof addTodoOps>) =>
  expect(applyJsonPatch(config, ops)).toEqual({ ok: true, value: apply(config) });

describe("to-do changes as JSON Patch", () => {
  it("says each change as operations on its own item, guarded by its id", () => {
    same(list, (c) => addTodo(c, todo("e")), addTodoOps(todo("e")));
    same(list, (c) => setDone(c, "c", true), setDoneOps(list, "c", true));
    same(list, (c) => editTodo(c, "b", "new"), editTodoOps(list, "b", "new"));
    same(list, (c) => removeTodo(c, "c"), removeTodoOps(list, "c"));
    same(
      list,
      (c) => setDue(c, "a", "2026-03-01T10:00:00.000Z"),
      setDueOps(list, "a", "2026-03-01T10:00:00.000Z"),
    );
    same(list, (c) => setDue(c, "c", undefined), setDueOps(list, "c", undefined));
    same(list, clearDone, clearDoneOps(list));
    expect(setDoneOps(list, "c", true)[0]).toEqual({ op: "test", path: "/todos/2/id", value: "c" });
  });

  it("has nothing to do for an item that is gone or already as asked", () => {
    expect(setDoneOps(list, "zz", true)).toEqual([]);
    expect(setDoneOps(list, "b", true)).toEqual([]);
    expect(setDueOps(list, "a", undefined)).toEqual([]);
    expect(removeTodoOps(list, "zz")).toEqual([]);
  });

  it("is refused where the list moved under it, so two people never change each other's items", () => {
    // Someone removed "a": index 2 holds "d" now, and ticking "c" by its old place must not tick it.
    const moved = { todos: list.todos.filter((t) => t.id !== "a") };
    expect(applyJsonPatch(moved, setDoneOps(list, "c", true)).ok).toBe(false);
  });

  it("moves an item as the list's drag and drop does", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 }), fc.integer({ min: -1, max: 6 }), (from, to) => {
        const ops = moveTodoOps(list, from, to);
        const result = applyJsonPatch(list, ops);
        expect(result).toEqual({ ok: true, value: { todos: moveItem(list.todos, from, to) } });
      }),
    );
  });
});
