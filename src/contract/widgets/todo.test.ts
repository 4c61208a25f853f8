import { describe, expect, it } from "vitest";
import { todoWidget } from "./todo.js";

const parse = todoWidget.parse;

describe("Todo config", () => {
  it("reads todos", () => {
    const todos = [{ id: "a", text: "Milk", done: true, createdAt: "2026-01-01T00:00:00.000Z" }];
    expect(parse({ todos })).toEqual({ todos });
  });

  it("falls back to defaults for missing or malformed values", () => {
    expect(todoWidget.defaults()).toEqual({ todos: [] });
    expect(parse(undefined)).toEqual(todoWidget.defaults());
    expect(parse({ todos: {} })).toEqual(todoWidget.defaults());
    expect(
      parse({
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
});
