import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { newId } from "../../../web/lib/ids";
import { moveItem, useDragList } from "../../../web/lib/reorder";
import { useNow } from "../../../web/lib/use-now";
import { Icon } from "../../../web/ui/icons";
import type { TimeOptions } from "../../../web/widget-kit/data/format";
import { defineWidget, type WidgetProps } from "../../../web/widget-kit/types";
import { todoWidget as contract, type Todo, type TodoConfig } from "../contract";
import { DueChip, DueEditor } from "./Due";
import { addTodo, clearDone, editTodo, removeTodo, setDue, toggleTodo, unfinished } from "./logic";
import { TodoSettings } from "./Settings";

function TodoRow({
  todo,
  onToggle,
  onEdit,
  onRemove,
  onDue,
  now,
  time,
  rowProps,
  handleKeyDown,
  indicator,
}: {
  todo: Todo;
  onToggle(): void;
  onEdit(text: string): void;
  onRemove(): void;
  onDue(dueAt: string | undefined): void;
  now: number;
  time: TimeOptions;
  rowProps: object;
  handleKeyDown: (e: KeyboardEvent<HTMLElement>) => void;
  indicator: string;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [dueOpen, setDueOpen] = useState(false);
  // Closing the due editor hands the focus back to the button that opened it, not to the page.
  const dueButton = useRef<HTMLButtonElement>(null);
  const dueWasOpen = useRef(false);
  useEffect(() => {
    if (dueWasOpen.current && !dueOpen) dueButton.current?.focus();
    dueWasOpen.current = dueOpen;
  }, [dueOpen]);
  const [draft, setDraft] = useState(todo.text);
  const checkboxId = useId();
  const finish = (save: boolean) => {
    setEditing(false);
    if (save && draft.trim() && draft !== todo.text) onEdit(draft.trim());
    else setDraft(todo.text);
  };
  return (
    <li
      className={`todo-row${todo.done ? " is-done" : ""}${todo.dueAt || dueOpen ? " has-due" : ""} ${indicator}`}
      {...(editing || dueOpen ? {} : rowProps)}
    >
      <input
        type="checkbox"
        id={checkboxId}
        className="todo-check"
        checked={todo.done}
        onChange={onToggle}
        aria-label={t("widgets.todo.doneLabel", { name: todo.text })}
      />
      <div className="todo-main">
        {editing ? (
          <input
            className="todo-edit"
            aria-label={t("widgets.todo.editLabel")}
            value={draft}
            maxLength={1000}
            // biome-ignore lint/a11y/noAutofocus: editing starts on request.
            autoFocus
            onChange={(e) => setDraft(e.target.value)}
            onBlur={() => finish(true)}
            onKeyDown={(e) => {
              if (e.key === "Enter") finish(true);
              if (e.key === "Escape") finish(false);
            }}
          />
        ) : (
          <label className="todo-text" htmlFor={checkboxId}>
            {todo.text}
          </label>
        )}
        <DueChip todo={todo} now={now} time={time} />
        {dueOpen && (
          <DueEditor todo={todo} timezone={time.timezone} onDue={onDue} onClose={() => setDueOpen(false)} />
        )}
      </div>
      {!editing && !dueOpen && (
        <div className="row-actions">
          <button
            type="button"
            className="icon-button small drag-handle"
            data-role="handle"
            aria-label={t("widgets.todo.reorder", { name: todo.text })}
            onKeyDown={handleKeyDown}
          >
            <Icon name="grip" size={14} />
          </button>
          <button
            type="button"
            className="icon-button small"
            aria-label={
              todo.dueAt
                ? t("widgets.todo.due.change", { name: todo.text })
                : t("widgets.todo.due.set", { name: todo.text })
            }
            ref={dueButton}
            onClick={() => setDueOpen(true)}
          >
            <Icon name="clock" size={14} />
          </button>
          <button
            type="button"
            className="icon-button small"
            aria-label={t("widgets.todo.edit", { name: todo.text })}
            onClick={() => setEditing(true)}
          >
            <Icon name="pencil" size={14} />
          </button>
          <button
            type="button"
            className="icon-button small danger"
            aria-label={t("widgets.todo.remove", { name: todo.text })}
            onClick={onRemove}
          >
            <Icon name="trash" size={14} />
          </button>
        </div>
      )}
    </li>
  );
}

/** A visitor's view: the list with what is done, nothing to tick or change. */
function TodoList({ config, time }: { config: TodoConfig; time: TimeOptions }) {
  const { t } = useTranslation();
  const now = useNow(60_000).getTime();
  const open = unfinished(config);
  if (config.todos.length === 0)
    return (
      <div className="widget-empty">
        <p>{t("widgets.todo.emptyReadOnly")}</p>
      </div>
    );
  return (
    <div className="todos">
      <ul className="todo-list">
        {config.todos.map((todo) => (
          <li
            key={todo.id}
            className={`todo-row is-static${todo.done ? " is-done" : ""}${todo.dueAt ? " has-due" : ""}`}
          >
            <span className={`todo-mark${todo.done ? " is-done" : ""}`} aria-hidden="true">
              {todo.done && <Icon name="check" size={12} />}
            </span>
            <span className="todo-text">
              {todo.text}
              {todo.done && <span className="visually-hidden"> {t("widgets.todo.doneMark")}</span>}
            </span>
            <DueChip todo={todo} now={now} time={time} />
          </li>
        ))}
      </ul>
      <footer className="todo-footer">
        <span>{open === 0 ? t("widgets.todo.allDone") : t("widgets.todo.left", { count: open })}</span>
      </footer>
    </div>
  );
}

function TodoWidget(props: WidgetProps<TodoConfig>) {
  const { timezone, hourFormat } = props.settings;
  if (props.readOnly) return <TodoList config={props.config} time={{ timezone, hourFormat }} />;
  return <TodoEditor {...props} />;
}

function TodoEditor({ config, update, settings }: WidgetProps<TodoConfig>) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  // A minute's precision is enough to turn a due time red.
  const now = useNow(60_000).getTime();
  const time = { timezone: settings.timezone, hourFormat: settings.hourFormat };
  const open = unfinished(config);
  const done = config.todos.length - open;
  const drag = useDragList(config.todos.length, (from, to) =>
    update((c) => ({ todos: moveItem(c.todos, from, to) })),
  );

  const add = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (!value) return;
    update((c) => addTodo(c, { id: newId(), text: value, done: false, createdAt: new Date().toISOString() }));
    setText("");
  };

  return (
    <div className="todos">
      <form className="todo-add" onSubmit={add}>
        <input
          aria-label={t("widgets.todo.new")}
          placeholder={t("widgets.todo.newPlaceholder")}
          value={text}
          maxLength={1000}
          onChange={(e) => setText(e.target.value)}
        />
        <button
          type="submit"
          className="icon-button"
          aria-label={t("widgets.todo.add")}
          disabled={!text.trim()}
        >
          <Icon name="plus" size={16} />
        </button>
      </form>
      {config.todos.length === 0 ? (
        <div className="widget-empty">
          <p>{t("widgets.todo.empty")}</p>
        </div>
      ) : (
        <ul className="todo-list">
          {config.todos.map((todo, index) => (
            <TodoRow
              key={todo.id}
              todo={todo}
              rowProps={drag.itemProps(index)}
              handleKeyDown={drag.handleKeyDown(index)}
              indicator={drag.indicator(index)}
              onToggle={() => update((c) => toggleTodo(c, todo.id))}
              onEdit={(value) => update((c) => editTodo(c, todo.id, value))}
              onRemove={() => update((c) => removeTodo(c, todo.id))}
              onDue={(dueAt) => update((c) => setDue(c, todo.id, dueAt))}
              now={now}
              time={time}
            />
          ))}
        </ul>
      )}
      {config.todos.length > 0 && (
        <footer className="todo-footer">
          <span>{open === 0 ? t("widgets.todo.allDone") : t("widgets.todo.left", { count: open })}</span>
          {done > 0 && (
            <button type="button" className="button ghost small" onClick={() => update(clearDone)}>
              {t("widgets.todo.clearDone", { count: done })}
            </button>
          )}
        </footer>
      )}
    </div>
  );
}

function TodoPreview() {
  const { t } = useTranslation();
  return (
    <div className="preview preview-list">
      {[
        [t("widgets.todo.preview.flights"), true],
        [t("widgets.todo.preview.plumber"), false],
        [t("widgets.todo.preview.plants"), false],
      ].map(([text, d]) => (
        <div key={String(text)} className={`preview-row${d ? " is-done" : ""}`}>
          <span className="preview-check">{d ? "✓" : ""}</span>
          {text}
        </div>
      ))}
    </div>
  );
}

export default defineWidget(contract, {
  group: "content",
  words: (t) => ({ name: t("widgets.todo.name"), description: t("widgets.todo.description") }),
  name: "Todo",
  description: "A checklist that syncs across your devices, with reminders when items are due.",
  keywords: ["tasks", "checklist", "list", "reminder"],
  icon: "listTodo",
  defaultSize: { columns: 5, rows: 18 },
  minSize: { columns: 4, rows: 9 },
  Component: TodoWidget,
  settings: [TodoSettings],
  Preview: TodoPreview,
});
