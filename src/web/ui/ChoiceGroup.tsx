import type { ReactNode } from "react";
import { useId } from "react";

/** A row of big radio choices (real radio inputs, styled as cards) for a small set of values. */
export function ChoiceGroup<T extends string>({
  legend,
  hideLegend = false,
  value,
  options,
  onChange,
  autoFocus = false,
}: {
  legend: string;
  hideLegend?: boolean;
  /** The chosen option takes the focus when a dialog opens on this group. */
  autoFocus?: boolean;
  value: T;
  options: { value: T; label: string; icon?: ReactNode }[];
  onChange(value: T): void;
}) {
  const name = useId();
  return (
    <fieldset className="choice-group">
      <legend className={hideLegend ? "visually-hidden" : "field-label"}>{legend}</legend>
      <div className="choice-row">
        {options.map((option) => (
          <label key={option.value} className={`choice${option.value === value ? " is-selected" : ""}`}>
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={option.value === value}
              data-autofocus={autoFocus && option.value === value ? true : undefined}
              onChange={() => onChange(option.value)}
            />
            {option.icon}
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
