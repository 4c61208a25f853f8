import { useId } from "react";
import type { TodoConfig } from "../../../contract/widgets/todo";
import { newId } from "../../lib/ids";
import { ALERT_HINT } from "../settings/AlertOption";
import { ListEditor } from "../settings/ListEditor";
import type { WidgetSettingsProps } from "../types";
import { DueInput } from "./Due";
import { clearDone, setDue } from "./logic";

export function TodoSettings({ config, onChange, settings }: WidgetSettingsProps<TodoConfig>) {
  const done = config.todos.filter((t) => t.done).length;
  const hintId = useId();
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
          <>
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
            <div className="list-editor-inline todo-due-setting">
              <span className="muted">Due</span>
              <DueInput
                todo={todo}
                timezone={settings.timezone}
                label={`Due time of ${todo.text || "todo"}`}
                describedBy={hintId}
                onDue={(dueAt) => onChange(setDue(config, todo.id, dueAt))}
              />
            </div>
          </>
        )}
      />
      <p className="field-hint" id={hintId}>
        {`Due times are in ${settings.timezone.replaceAll("_", " ")} time. ${ALERT_HINT}.`}
      </p>
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
