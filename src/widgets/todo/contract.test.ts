import { describe, expect, it } from "vitest";
import { translate } from "../../server/i18n/translator.js";
import { todoWidget } from "./contract.js";

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

describe("Todo alert rules", () => {
  const rules = (raw: unknown) => todoWidget.alerts!.rules!(parse(raw));

  it("asks for a reminder per unfinished item with a due time, keyed by its id", () => {
    const found = rules({
      todos: [
        { id: "a", text: "Milk", done: false, dueAt: "2030-01-01T18:00:00+02:00" },
        { id: "b", text: "Bread", done: true, dueAt: "2030-01-01T18:00:00Z" },
        { id: "c", text: "Eggs", done: false },
        { id: "d", text: "", dueAt: "2030-01-02T00:00:00Z" },
      ],
    });
    expect(found).toMatchObject([
      { key: "todo:a", at: "2030-01-01T16:00:00.000Z" },
      { key: "todo:d", at: "2030-01-02T00:00:00.000Z" },
    ]);
    expect(found.map((rule) => translate("en", rule.text))).toEqual(["Due: Milk", "Due: a to-do"]);
    expect(found.map((rule) => translate("fr", rule.text))).toEqual([
      "Échéance : Milk",
      "Échéance : une tâche",
    ]);
    expect(rules({})).toEqual([]);
  });

  it("checks dueAt strictly", () => {
    const check = todoWidget.alerts!.check;
    expect(check({ todos: [{ id: "a", dueAt: "2030-01-01T00:00:00Z" }, { id: "b" }] })).toEqual([]);
    expect(
      check({
        todos: [
          { id: "a", dueAt: 5 },
          { id: "b", dueAt: "tomorrow" },
        ],
      }),
    ).toEqual([
      { path: "/todos/0/dueAt", message: "must be an ISO 8601 date-time string" },
      { path: "/todos/1/dueAt", message: "must be an ISO 8601 date-time string" },
    ]);
  });
});
