import { useId } from "react";
import { useTranslation } from "react-i18next";
import { newId } from "../../../web/lib/ids";
import { alertHint } from "../../../web/widget-kit/settings/AlertOption";
import { ListEditor } from "../../../web/widget-kit/settings/ListEditor";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import type { TodoConfig } from "../contract";
import { DueInput } from "./Due";
import { clearDone, setDue } from "./logic";

export function TodoSettings({ config, onChange, settings }: WidgetSettingsProps<TodoConfig>) {
  const { t } = useTranslation();
  const done = config.todos.filter((todo) => todo.done).length;
  const hintId = useId();
  return (
    <>
      <ListEditor
        items={config.todos}
        onChange={(todos) => onChange({ todos })}
        label={(todo) => todo.text || t("widgets.todo.unnamed")}
        empty={t("widgets.todo.settings.empty")}
        addLabel={t("widgets.todo.add")}
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
                aria-label={t("widgets.todo.doneLabel", { name: todo.text })}
                checked={todo.done}
                onChange={(e) => set({ done: e.target.checked })}
              />
              <input
                aria-label={t("widgets.todo.settings.text")}
                value={todo.text}
                maxLength={1000}
                onChange={(e) => set({ text: e.target.value })}
              />
            </div>
            <div className="list-editor-inline todo-due-setting">
              <span className="muted">{t("widgets.todo.settings.due")}</span>
              <DueInput
                todo={todo}
                timezone={settings.timezone}
                label={t("widgets.todo.due.label", { name: todo.text || t("widgets.todo.unnamed") })}
                describedBy={hintId}
                onDue={(dueAt) => onChange(setDue(config, todo.id, dueAt))}
              />
            </div>
          </>
        )}
      />
      <p className="field-hint" id={hintId}>
        {t("widgets.todo.settings.zoneHint", {
          zone: settings.timezone.replaceAll("_", " "),
          hint: alertHint(),
        })}
      </p>
      <div className="dialog-actions start">
        <button
          type="button"
          className="button ghost small"
          disabled={done === 0}
          onClick={() => onChange(clearDone(config))}
        >
          {t("widgets.todo.clearDone", { count: done })}
        </button>
        <button
          type="button"
          className="button ghost small"
          disabled={config.todos.length === 0}
          onClick={() => onChange({ todos: [] })}
        >
          {t("widgets.todo.settings.clearAll")}
        </button>
      </div>
    </>
  );
}
