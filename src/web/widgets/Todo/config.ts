import { asBoolean, asId, asIsoDate, isRecord, uniqueIds } from "../../lib/parse";

export interface Todo {
  id: string;
  text: string;
  done: boolean;
  createdAt: string;
}
export interface TodoConfig {
  todos: Todo[];
}

export const defaultTodoConfig = (): TodoConfig => ({ todos: [] });

export function parseTodoConfig(raw: unknown): TodoConfig {
  if (!isRecord(raw) || !Array.isArray(raw.todos)) return defaultTodoConfig();
  const todos: Todo[] = [];
  raw.todos.forEach((entry, index) => {
    if (!isRecord(entry) || typeof entry.text !== "string") return;
    todos.push({
      id: asId(entry.id, "todo", index),
      text: entry.text.slice(0, 1000),
      // `checked` is what older dashboards called it.
      done: asBoolean(entry.done, asBoolean(entry.checked, false)),
      createdAt: asIsoDate(entry.createdAt) ?? "",
    });
  });
  return { todos: uniqueIds(todos) };
}

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

export const unfinished = (config: TodoConfig) => config.todos.filter((t) => !t.done).length;
