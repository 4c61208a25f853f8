import type { TodoConfig } from "../../../contract/widgets/todo";
import { newId } from "../../lib/ids";
import { ListEditor } from "../settings/ListEditor";
import type { WidgetSettingsProps } from "../types";
import { clearDone } from "./logic";

export function TodoSettings({ config, onChange }: WidgetSettingsProps<TodoConfig>) {
  const done = config.todos.filter((t) => t.done).length;
  return (
    <>
      <ListEditor
        items={config.todos}
        onChange={(todos) => onChange({ todos })}
        label={(todo) => todo.text || "todo"}
        empty="No todos."
        addLabel="Add todo"
        onAdd={() =>
          onChange({
            todos: [
              ...config.todos,
              { id: newId(), text: "", done: false, createdAt: new Date().toISOString() },
            ],
          })
        }
        renderFields={(todo, set) => (
          <div className="list-editor-inline">
            <input
              type="checkbox"
              aria-label={`Done: ${todo.text}`}
              checked={todo.done}
              onChange={(e) => set({ done: e.target.checked })}
            />
            <input
              aria-label="Todo text"
              value={todo.text}
              maxLength={1000}
              onChange={(e) => set({ text: e.target.value })}
            />
          </div>
        )}
      />
      <div className="dialog-actions start">
        <button
          type="button"
          className="button ghost small"
          disabled={done === 0}
          onClick={() => onChange(clearDone(config))}
        >
          Clear done ({done})
        </button>
        <button
          type="button"
          className="button ghost small"
          disabled={config.todos.length === 0}
          onClick={() => onChange({ todos: [] })}
        >
          Clear all
        </button>
      </div>
    </>
  );
}
