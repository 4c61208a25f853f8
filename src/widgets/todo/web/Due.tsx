import { useId } from "react";
import { useTranslation } from "react-i18next";
import { useLocale } from "../../../web/i18n/use-locale";
import { Icon } from "../../../web/ui/icons";
import type { TimeOptions } from "../../../web/widget-kit/data/format";
import { alertHint } from "../../../web/widget-kit/settings/AlertOption";
import type { Todo } from "../contract";
import { dueFromInput, dueInputValue, dueLabel } from "./logic";

/** The due time on a row: short, and marked when it has passed with the item still open. */
export function DueChip({ todo, now, time }: { todo: Todo; now: number; time: TimeOptions }) {
  const { t } = useTranslation();
  const label = dueLabel(todo, now, time, useLocale());
  if (!label || !todo.dueAt) return null;
  return (
    <time className={`todo-due${label.overdue ? " is-overdue" : ""}`} dateTime={todo.dueAt}>
      <Icon name="clock" size={11} />
      {label.overdue && <span className="visually-hidden">{t("widgets.todo.due.overduePrefix")}</span>}
      {!label.overdue && <span className="visually-hidden">{t("widgets.todo.due.duePrefix")}</span>}
      {label.text}
    </time>
  );
}

/**
 * A datetime-local input read and written on the user's zone's wall clock. A half-typed value
 * reads as "" and is ignored: only the Clear button removes a due time.
 */
export function DueInput({
  todo,
  timezone,
  onDue,
  label,
  autoFocus = false,
  describedBy,
  compact = false,
}: {
  todo: Todo;
  timezone: string;
  onDue(dueAt: string | undefined): void;
  label: string;
  autoFocus?: boolean;
  describedBy?: string;
  /** Inside a widget row: the Clear button is an icon, so the editor fits one line. */
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const clearLabel = todo.text
    ? t("widgets.todo.due.clearNamed", { name: todo.text })
    : t("widgets.todo.due.clear");
  return (
    <span className="todo-due-input">
      <input
        type="datetime-local"
        aria-label={label}
        aria-describedby={describedBy}
        value={dueInputValue(todo.dueAt, timezone)}
        // biome-ignore lint/a11y/noAutofocus: opened on request from the row's button.
        autoFocus={autoFocus}
        onChange={(e) => {
          const dueAt = dueFromInput(e.target.value, timezone);
          if (dueAt) onDue(dueAt);
        }}
      />
      <button
        type="button"
        className={compact ? "icon-button small" : "button ghost small"}
        disabled={!todo.dueAt}
        aria-label={clearLabel}
        title={compact ? clearLabel : undefined}
        onClick={() => onDue(undefined)}
      >
        {compact ? <Icon name="x" size={15} /> : t("widgets.todo.due.clearButton")}
      </button>
    </span>
  );
}

/** The row's due editor, opened from its clock button; Escape or Done closes it. */
export function DueEditor({
  todo,
  timezone,
  onDue,
  onClose,
}: {
  todo: Todo;
  timezone: string;
  onDue(dueAt: string | undefined): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const hintId = useId();
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape from any control inside closes it.
    <div
      className="todo-due-edit"
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        e.stopPropagation();
        onClose();
      }}
    >
      <div className="todo-due-controls">
        <DueInput
          todo={todo}
          timezone={timezone}
          onDue={onDue}
          label={t("widgets.todo.due.label", { name: todo.text })}
          autoFocus
          compact
          describedBy={hintId}
        />
        <button
          type="button"
          className="icon-button small"
          aria-label={t("common.done")}
          title={t("common.done")}
          onClick={onClose}
        >
          <Icon name="check" size={15} />
        </button>
      </div>
      <p className="field-hint" id={hintId}>
        {t("widgets.todo.due.zoneHint", { zone: timezone.replaceAll("_", " "), hint: alertHint() })}
      </p>
    </div>
  );
}
