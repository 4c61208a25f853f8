import type { Static } from "@sinclair/typebox";
import { serverText } from "../../contract/server-text.js";
import { Type } from "../../contract/typebox.js";
import {
  type AlertConfigIssue,
  type AlertRule,
  defineWidgetType,
  mapRecords,
} from "../../contract/widget-kit/define.js";
import { DateTime, Id, Instant, ItemList, isInstant, Text } from "../../contract/widget-kit/fields.js";
import { isRecord } from "../../contract/widget-kit/parse.js";

const Todo = Type.Object({
  id: Id("todo"),
  text: Text({ maxLength: 1000 }),
  done: Type.Boolean({ default: false }),
  createdAt: DateTime({ default: "" }),
  /** A reminder when the item is due and still not done, sent by the server. */
  dueAt: Type.Optional(Instant({ description: "ISO 8601 instant" })),
});

export const TodoConfig = Type.Object({ todos: ItemList(Todo) });
export type TodoConfig = Static<typeof TodoConfig>;
export type Todo = TodoConfig["todos"][number];

const UNTITLED = serverText("alerts.todo.untitled");

/** One reminder per unfinished item with a due time, keyed by the item's id. */
export function todoRules(config: TodoConfig): AlertRule[] {
  return config.todos
    .filter((todo) => !todo.done && todo.dueAt !== undefined)
    .map((todo) => ({
      key: `todo:${todo.id}`,
      at: todo.dueAt!,
      text: serverText("alerts.todo.due", { text: todo.text || UNTITLED }),
    }));
}

function checkTodo(raw: unknown): AlertConfigIssue[] {
  if (!isRecord(raw) || !Array.isArray(raw.todos)) return [];
  const issues: AlertConfigIssue[] = [];
  raw.todos.forEach((todo, i) => {
    if (!isRecord(todo) || todo.dueAt === undefined) return;
    if (typeof todo.dueAt !== "string" || !isInstant(todo.dueAt))
      issues.push({ path: `/todos/${i}/dueAt`, message: "must be an ISO 8601 date-time string" });
  });
  return issues;
}

export const todoWidget = defineWidgetType({
  type: "Todo",
  config: TodoConfig,
  data: { kind: "config" },
  alerts: { rules: todoRules, check: checkTodo },
  // `checked` is what older dashboards called `done`.
  migrate: (raw) => ({
    ...raw,
    todos: mapRecords(raw.todos, (t) =>
      typeof t.done !== "boolean" && typeof t.checked === "boolean" ? { ...t, done: t.checked } : t,
    ),
  }),
});
