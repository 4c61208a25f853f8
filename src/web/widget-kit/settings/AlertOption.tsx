import { useId } from "react";
import { t } from "../../i18n/i18n";

/** Where a server-side alert shows up; said under every alert option so no panel promises more. */
export const alertHint = (): string => t("widgets.settings.alertHint");

export function AlertHint({ id }: { id?: string }) {
  return (
    <p className="field-hint alert-hint" id={id}>
      {alertHint()}
    </p>
  );
}

/** An on/off alert option (Countdown `notify`, Inbox `notifyNewMail`): a checkbox with the hint tied to it. */
export function AlertToggle({
  label,
  checked,
  onChange,
  disabled = false,
  disabledReason,
}: {
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
  disabled?: boolean;
  /** Said instead of nothing when the option cannot be used yet. */
  disabledReason?: string;
}) {
  const hintId = useId();
  const reasonId = useId();
  return (
    <div className="field alert-option">
      <label className={`checkbox-row${disabled ? " is-disabled" : ""}`}>
        <input
          type="checkbox"
          checked={checked}
          disabled={disabled}
          aria-describedby={disabled && disabledReason ? `${reasonId} ${hintId}` : hintId}
          onChange={(e) => onChange(e.target.checked)}
        />
        {label}
      </label>
      {disabled && disabledReason && (
        <p className="field-hint" id={reasonId}>
          {disabledReason}
        </p>
      )}
      <AlertHint id={hintId} />
    </div>
  );
}
