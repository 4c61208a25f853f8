import type { InputHTMLAttributes, KeyboardEvent } from "react";
import { Icon } from "../ui/icons";
import { Spinner } from "../ui/States";

/** A search field with its magnifier and, while a search runs, a spinner. */
export function SearchInput({
  compact = false,
  searching,
  inForm = false,
  onKeyDown,
  ...input
}: {
  /** The smaller one of a widget's toolbar or an inline picker. */
  compact?: boolean;
  /** What the spinner says ("Searching…") while a search runs; no spinner when absent. */
  searching?: string;
  /** Inside a settings form, where Enter would save and close the panel: here it only searches. */
  inForm?: boolean;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type">) {
  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (inForm && event.key === "Enter") event.preventDefault();
    onKeyDown?.(event);
  };
  return (
    <div className={compact ? "search-input compact" : "search-input"}>
      <Icon name="search" size={compact ? 14 : 15} />
      <input type="search" onKeyDown={inForm || onKeyDown ? keyDown : undefined} {...input} />
      {searching && <Spinner label={searching} />}
    </div>
  );
}
