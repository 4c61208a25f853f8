import type { Todo, TodoConfig } from "../../../contract/widgets/todo";

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
