import { type FormEvent, type KeyboardEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { newId } from "../../../web/lib/ids";
import { moveItem, useDragList } from "../../../web/lib/reorder";
import { useNow } from "../../../web/lib/use-now";
import { Icon, IconButton } from "../../../web/ui/icons";
import type { TimeOptions } from "../../../web/widget-kit/data/format";
import { InlineEdit, useFocusBack } from "../../../web/widget-kit/ItemEditing";
import { PreviewList } from "../../../web/widget-kit/PreviewList";
import { defineWidget, type WidgetProps, withReadOnlyView } from "../../../web/widget-kit/types";
import { WidgetEmpty } from "../../../web/widget-kit/WidgetEmpty";
import { todoWidget as contract, type Todo, type TodoConfig } from "../contract";
import { DueChip, DueEditor } from "./Due";
import {
  addTodo,
  addTodoOps,
  clearDone,
  clearDoneOps,
  editTodo,
  editTodoOps,
  moveTodoOps,
  removeTodo,
  removeTodoOps,
  setDone,
  setDoneOps,
  setDue,
  setDueOps,
  unfinished,
} from "./logic";
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
  const dueButton = useFocusBack(dueOpen);
  const checkboxId = useId();
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
          <InlineEdit
            className="todo-edit"
            aria-label={t("widgets.todo.editLabel")}
            value={todo.text}
            maxLength={1000}
            onSave={onEdit}
            onDone={() => setEditing(false)}
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
          <IconButton
            icon="grip"
            size={14}
            className="small drag-handle"
            data-role="handle"
            label={t("widgets.todo.reorder", { name: todo.text })}
            onKeyDown={handleKeyDown}
          />
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
          <IconButton
            icon="pencil"
            size={14}
            className="small"
            label={t("widgets.todo.edit", { name: todo.text })}
            onClick={() => setEditing(true)}
          />
          <IconButton
            icon="trash"
            size={14}
            className="small danger"
            label={t("widgets.todo.remove", { name: todo.text })}
            onClick={onRemove}
          />
        </div>
      )}
    </li>
  );
}

/** A visitor's view: the list with what is done, nothing to tick or change. */
function TodoList({ config, settings }: Pick<WidgetProps<TodoConfig>, "config" | "settings">) {
  const { t } = useTranslation();
  const now = useNow(60_000).getTime();
  const time = { timezone: settings.timezone, hourFormat: settings.hourFormat };
  const open = unfinished(config);
  if (config.todos.length === 0) return <WidgetEmpty text={t("widgets.todo.emptyReadOnly")} />;
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

// Each change is sent as JSON Patch on its own item (widget-kit `patch`): two people ticking,
// adding or removing different items of one list at the same time both land.
function TodoEditor({ config, patch, settings }: WidgetProps<TodoConfig>) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  // A minute's precision is enough to turn a due time red.
  const now = useNow(60_000).getTime();
  const time = { timezone: settings.timezone, hourFormat: settings.hourFormat };
  const open = unfinished(config);
  const done = config.todos.length - open;
  const drag = useDragList(config.todos.length, (from, to) =>
    patch({ apply: (c) => ({ todos: moveItem(c.todos, from, to) }), ops: (c) => moveTodoOps(c, from, to) }),
  );

  const add = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (!value) return;
    const todo = { id: newId(), text: value, done: false, createdAt: new Date().toISOString() };
    patch({ apply: (c) => addTodo(c, todo), ops: () => addTodoOps(todo) });
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
        <WidgetEmpty text={t("widgets.todo.empty")} />
      ) : (
        <ul className="todo-list">
          {config.todos.map((todo, index) => (
            <TodoRow
              key={todo.id}
              todo={todo}
              rowProps={drag.itemProps(index)}
              handleKeyDown={drag.handleKeyDown(index)}
              indicator={drag.indicator(index)}
              onToggle={() => {
                // What the reader saw and meant: ticked stays ticked, whoever else ticked it too.
                const done = !todo.done;
                patch({ apply: (c) => setDone(c, todo.id, done), ops: (c) => setDoneOps(c, todo.id, done) });
              }}
              onEdit={(value) =>
                patch({
                  apply: (c) => editTodo(c, todo.id, value),
                  ops: (c) => editTodoOps(c, todo.id, value),
                })
              }
              onRemove={() =>
                patch({ apply: (c) => removeTodo(c, todo.id), ops: (c) => removeTodoOps(c, todo.id) })
              }
              onDue={(dueAt) =>
                patch({ apply: (c) => setDue(c, todo.id, dueAt), ops: (c) => setDueOps(c, todo.id, dueAt) })
              }
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
            <button
              type="button"
              className="button ghost small"
              onClick={() => patch({ apply: clearDone, ops: clearDoneOps })}
            >
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
  const todos = [
    [t("widgets.todo.preview.flights"), true],
    [t("widgets.todo.preview.plumber"), false],
    [t("widgets.todo.preview.plants"), false],
  ] as const;
  return (
    <PreviewList
      rows={todos.map(([text, done]) => ({
        text,
        state: done ? "is-done" : undefined,
        mark: <span className="preview-check">{done ? "✓" : ""}</span>,
      }))}
    />
  );
}

export default defineWidget(contract, {
  group: "content",
  words: (t) => ({ name: t("widgets.todo.name"), description: t("widgets.todo.description") }),
  keywords: ["tasks", "checklist", "list", "reminder"],
  icon: "listTodo",
  defaultSize: { columns: 5, rows: 18 },
  minSize: { columns: 4, rows: 9 },
  Component: withReadOnlyView(TodoEditor, TodoList),
  settings: [TodoSettings],
  Preview: TodoPreview,
});
