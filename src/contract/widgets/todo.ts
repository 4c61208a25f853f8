import type { Static } from "@sinclair/typebox";
import { Type } from "../typebox.js";
import { defineWidgetType, mapRecords } from "./define.js";
import { DateTime, Id, ItemList, Text } from "./fields.js";

const Todo = Type.Object({
  id: Id("todo"),
  text: Text({ maxLength: 1000 }),
  done: Type.Boolean({ default: false }),
  createdAt: DateTime({ default: "" }),
});

export const TodoConfig = Type.Object({ todos: ItemList(Todo) });
export type TodoConfig = Static<typeof TodoConfig>;
export type Todo = TodoConfig["todos"][number];

export const todoWidget = defineWidgetType({
  type: "Todo",
  config: TodoConfig,
  data: { kind: "config" },
  // `checked` is what older dashboards called `done`.
  migrate: (raw) => ({
    ...raw,
    todos: mapRecords(raw.todos, (t) =>
      typeof t.done !== "boolean" && typeof t.checked === "boolean" ? { ...t, done: t.checked } : t,
    ),
  }),
});
