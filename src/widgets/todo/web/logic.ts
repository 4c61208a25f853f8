import { t } from "../../../web/i18n/i18n";
import {
  addDays,
  appLocale,
  dayKey,
  formatTime,
  type TimeOptions,
  zonedTimeToUtc,
  zonedWallClock,
} from "../../../web/widget-kit/data/format";
import type { PatchOperation } from "../../../web/widget-kit/types";
import type { Todo, TodoConfig } from "../contract";

export const addTodo = (config: TodoConfig, todo: Todo): TodoConfig => ({ todos: [...config.todos, todo] });

export const toggleTodo = (config: TodoConfig, id: string): TodoConfig => ({
  todos: config.todos.map((t) => (t.id === id ? { ...t, done: !t.done } : t)),
});

export const editTodo = (config: TodoConfig, id: string, text: string): TodoConfig => ({
  todos: config.todos.map((t) => (t.id === id ? { ...t, text } : t)),
});

export const removeTodo = (config: TodoConfig, id: string): TodoConfig => ({
  todos: config.todos.filter((t) => t.id !== id),
});

export const clearDone = (config: TodoConfig): TodoConfig => ({ todos: config.todos.filter((t) => !t.done) });

export const setDone = (config: TodoConfig, id: string, done: boolean): TodoConfig => ({
  todos: config.todos.map((t) => (t.id === id ? { ...t, done } : t)),
});

/*
 * The same changes as JSON Patch operations on the config (widget-kit `patch`), so two people
 * changing different items both land. Each names its item by index after a `test` of the item's
 * id there: if the list moved under it, the server refuses (409) and the change is said again on
 * the list as it is then. An item no longer there is nothing to do ([]).
 */

/** The item's place, with the guard that it is still there. */
function item(config: TodoConfig, id: string): { path: string; guard: PatchOperation; todo: Todo } | null {
  const index = config.todos.findIndex((t) => t.id === id);
  if (index < 0) return null;
  const path = `/todos/${index}`;
  return { path, guard: { op: "test", path: `${path}/id`, value: id }, todo: config.todos[index]! };
}

export const addTodoOps = (todo: Todo): PatchOperation[] => [{ op: "add", path: "/todos/-", value: todo }];

export function setDoneOps(config: TodoConfig, id: string, done: boolean): PatchOperation[] {
  const at = item(config, id);
  if (!at || at.todo.done === done) return [];
  return [at.guard, { op: "replace", path: `${at.path}/done`, value: done }];
}

export function editTodoOps(config: TodoConfig, id: string, text: string): PatchOperation[] {
  const at = item(config, id);
  if (!at || at.todo.text === text) return [];
  return [at.guard, { op: "replace", path: `${at.path}/text`, value: text }];
}

export function removeTodoOps(config: TodoConfig, id: string): PatchOperation[] {
  const at = item(config, id);
  return at ? [at.guard, { op: "remove", path: at.path }] : [];
}

export function setDueOps(config: TodoConfig, id: string, dueAt: string | undefined): PatchOperation[] {
  const at = item(config, id);
  if (!at || at.todo.dueAt === dueAt) return [];
  if (dueAt === undefined) return [at.guard, { op: "remove", path: `${at.path}/dueAt` }];
  return [at.guard, { op: "add", path: `${at.path}/dueAt`, value: dueAt }];
}

/** Every finished item removed, the last first so the earlier indexes still hold. */
export function clearDoneOps(config: TodoConfig): PatchOperation[] {
  return config.todos
    .map((todo, index) => ({ todo, index }))
    .filter(({ todo }) => todo.done)
    .reverse()
    .flatMap(({ todo, index }) => [
      { op: "test", path: `/todos/${index}/id`, value: todo.id } satisfies PatchOperation,
      { op: "remove", path: `/todos/${index}` } satisfies PatchOperation,
    ]);
}

/** The item at `from` moved to `to` (clamped), as `moveItem` moves it. */
export function moveTodoOps(config: TodoConfig, from: number, to: number): PatchOperation[] {
  const todo = config.todos[from];
  const target = Math.max(0, Math.min(to, config.todos.length - 1));
  if (!todo || target === from) return [];
  return [
    { op: "test", path: `/todos/${from}/id`, value: todo.id },
    { op: "move", from: `/todos/${from}`, path: `/todos/${target}` },
  ];
}

export const unfinished = (config: TodoConfig) => config.todos.filter((t) => !t.done).length;

/** Sets or clears (undefined) an item's due time; clearing leaves the key out, as the contract wants. */
export function setDue(config: TodoConfig, id: string, dueAt: string | undefined): TodoConfig {
  return {
    todos: config.todos.map((t) => {
      if (t.id !== id) return t;
      const { dueAt: _old, ...rest } = t;
      return dueAt === undefined ? rest : { ...rest, dueAt };
    }),
  };
}

/**
 * A datetime-local input value ("YYYY-MM-DDTHH:MM") for an instant, on the user's zone's wall
 * clock (app settings), not the browser's: a user in Berlin travelling sees Berlin times.
 */
export function dueInputValue(dueAt: string | undefined, timezone: string): string {
  if (!dueAt) return "";
  const instant = Date.parse(dueAt);
  if (!Number.isFinite(instant)) return "";
  const { date, time } = zonedWallClock(instant, timezone);
  return `${date}T${time}`;
}

const LOCAL_INPUT = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?$/;

/** The ISO instant a datetime-local value names in the user's zone; undefined when empty or unreadable. */
export function dueFromInput(value: string, timezone: string): string | undefined {
  const match = LOCAL_INPUT.exec(value.trim());
  if (!match) return undefined;
  const at = zonedTimeToUtc(match[1]!, match[2]!, timezone);
  return Number.isFinite(at.getTime()) ? at.toISOString() : undefined;
}

export interface DueLabel {
  text: string;
  /** Past due and not done: styled as overdue. */
  overdue: boolean;
}

/** "Today 14:30", "Tomorrow 09:00", "12 Mar 18:00": short enough for a to-do row. */
export function dueLabel(
  todo: Pick<Todo, "dueAt" | "done">,
  now: number,
  options: TimeOptions,
  locale = appLocale(),
): DueLabel | null {
  if (!todo.dueAt) return null;
  const at = Date.parse(todo.dueAt);
  if (!Number.isFinite(at)) return null;
  const day = dayKey(at, options.timezone);
  const today = dayKey(now, options.timezone);
  const time = formatTime(at, options, locale);
  const prefix =
    day === today
      ? t("widgets.data.day.today")
      : day === addDays(today, 1)
        ? t("widgets.data.day.tomorrow")
        : day === addDays(today, -1)
          ? t("widgets.data.day.yesterday")
          : new Intl.DateTimeFormat(locale, {
              timeZone: options.timezone,
              day: "numeric",
              month: "short",
              year: day.slice(0, 4) === today.slice(0, 4) ? undefined : "numeric",
            }).format(at);
  return { text: t("widgets.todo.due.dayTime", { day: prefix, time }), overdue: !todo.done && at <= now };
}
