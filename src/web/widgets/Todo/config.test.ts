import { describe, expect, it } from "vitest";
import {
  addTodo,
  clearDone,
  defaultTodoConfig,
  editTodo,
  parseTodoConfig,
  removeTodo,
  toggleTodo,
  unfinished,
} from "./config";

describe("Todo config", () => {
  it("reads todos", () => {
    const todos = [{ id: "a", text: "Milk", done: true, createdAt: "2026-01-01T00:00:00.000Z" }];
    expect(parseTodoConfig({ todos })).toEqual({ todos });
  });

  it("falls back to defaults for missing or malformed values", () => {
    expect(parseTodoConfig(undefined)).toEqual(defaultTodoConfig());
    expect(parseTodoConfig({ todos: {} })).toEqual(defaultTodoConfig());
    expect(
      parseTodoConfig({
        todos: [
          null,
          { text: 3 },
          { text: "Legacy", checked: true },
          { id: "x", text: "Bad", done: "yes", createdAt: "?" },
        ],
      }),
    ).toEqual({
      todos: [
        { id: "todo-2", text: "Legacy", done: true, createdAt: "" },
        { id: "x", text: "Bad", done: false, createdAt: "" },
      ],
    });
  });

  it("adds, toggles, edits, removes and clears done todos", () => {
    let config = defaultTodoConfig();
    config = addTodo(config, { id: "1", text: "One", done: false, createdAt: "" });
    config = addTodo(config, { id: "2", text: "Two", done: false, createdAt: "" });
    config = toggleTodo(config, "1");
    config = editTodo(config, "2", "Two!");
    expect(unfinished(config)).toBe(1);
    expect(clearDone(config).todos.map((t) => t.text)).toEqual(["Two!"]);
    expect(removeTodo(config, "2").todos.map((t) => t.id)).toEqual(["1"]);
  });
});
