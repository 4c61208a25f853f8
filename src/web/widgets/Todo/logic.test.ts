import { describe, expect, it } from "vitest";
import { todoWidget } from "../../../contract/widgets/todo";
import { addTodo, clearDone, editTodo, removeTodo, toggleTodo, unfinished } from "./logic";

describe("Todo changes", () => {
  it("adds, toggles, edits, removes and clears done todos", () => {
    let config = todoWidget.defaults();
    config = addTodo(config, { id: "1", text: "One", done: false, createdAt: "" });
    config = addTodo(config, { id: "2", text: "Two", done: false, createdAt: "" });
    config = toggleTodo(config, "1");
    config = editTodo(config, "2", "Two!");
    expect(unfinished(config)).toBe(1);
    expect(clearDone(config).todos.map((t) => t.text)).toEqual(["Two!"]);
    expect(removeTodo(config, "2").todos.map((t) => t.id)).toEqual(["1"]);
  });
});
