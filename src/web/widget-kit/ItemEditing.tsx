import { type InputHTMLAttributes, useEffect, useRef, useState } from "react";
import { IconButton } from "../ui/icons";

/**
 * Renaming an item in place (a card, a column, a todo): the field opens focused; Enter or leaving
 * it saves a changed, non-empty text, Escape drops the edit. `onDone` closes it either way.
 */
export function InlineEdit({
  value,
  onSave,
  onDone,
  ...input
}: {
  value: string;
  onSave(text: string): void;
  onDone(): void;
} & Pick<InputHTMLAttributes<HTMLInputElement>, "className" | "aria-label" | "maxLength">) {
  return (
    <input
      {...input}
      defaultValue={value}
      // biome-ignore lint/a11y/noAutofocus: editing starts on request.
      autoFocus
      onBlur={(e) => {
        const text = e.target.value.trim();
        if (text && text !== value) onSave(text);
        onDone();
      }}
      onKeyDown={(e) => {
        if (e.key === "Enter") e.currentTarget.blur();
        if (e.key === "Escape") onDone();
      }}
    />
  );
}

/**
 * Deleting something that holds more (a note, a column with cards): the first press turns the
 * trash button into "Delete …?", focused so Enter confirms; leaving it cancels. Without `ask`
 * (an empty column) the first press deletes.
 */
export function DeleteButton({
  label,
  confirm,
  onDelete,
  ask = true,
  iconSize = 14,
}: {
  label: string;
  /** The confirming button's words. */
  confirm: string;
  onDelete(): void;
  ask?: boolean;
  iconSize?: number;
}) {
  const [asking, setAsking] = useState(false);
  if (asking)
    return (
      <button
        type="button"
        className="button danger small"
        // biome-ignore lint/a11y/noAutofocus: the confirmation takes focus so Enter confirms.
        autoFocus
        onBlur={() => setAsking(false)}
        onClick={() => {
          setAsking(false);
          onDelete();
        }}
      >
        {confirm}
      </button>
    );
  return (
    <IconButton
      icon="trash"
      size={iconSize}
      className="small danger"
      label={label}
      onClick={() => (ask ? setAsking(true) : onDelete())}
    />
  );
}

/**
 * Hands the focus back to the button that opened a panel (an icon picker, a due editor) when the
 * panel closes, rather than to the page. Put the returned ref on that button.
 */
export function useFocusBack(open: boolean) {
  const button = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current && !open) button.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return button;
}
