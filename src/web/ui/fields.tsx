import type { InputHTMLAttributes, ReactNode } from "react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { browserTimeZone } from "../lib/app-settings";

/** A labelled form row; the label is tied to the control for screen readers and clicks. */
export function Field({
  id: givenId,
  label,
  hint,
  error,
  children,
}: {
  id?: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  children: (id: string, describedBy: string | undefined) => ReactNode;
}) {
  const generated = useId();
  const id = givenId ?? generated;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <label htmlFor={id}>{label}</label>
      {children(id, describedBy)}
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** A labelled one-line text input; the error marks it invalid and is read with it. */
export function TextField({
  id,
  label,
  hint,
  error,
  value,
  onChange,
  ...input
}: {
  id?: string;
  label: string;
  hint?: ReactNode;
  error?: string | null;
  value: string;
  onChange(value: string): void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "value" | "onChange">) {
  return (
    <Field id={id} label={label} hint={hint} error={error ?? undefined}>
      {(fieldId, describedBy) => (
        <input
          id={fieldId}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.value)}
          {...input}
        />
      )}
    </Field>
  );
}

/** What went wrong with a whole form (not one field), announced when it appears. */
export function FormError({
  message,
  className,
}: {
  message: string | null | undefined;
  className?: string;
}) {
  if (!message) return null;
  return (
    <p className={className ? `form-error ${className}` : "form-error"} role="alert">
      {message}
    </p>
  );
}

/**
 * A form's or dialog's closing row: the form's error above it, what `children` add first, Cancel
 * when `onCancel` is given, then the main button, which says `busyLabel` while `busy`. Without
 * `onClick` the main button submits the form.
 */
export function FormActions({
  label,
  busyLabel,
  busy = false,
  disabled = false,
  tone = "primary",
  onClick,
  onCancel,
  cancelLabel,
  focusCancel = false,
  start = false,
  error,
  children,
}: {
  label: string;
  busyLabel?: string;
  busy?: boolean;
  disabled?: boolean;
  tone?: "primary" | "danger";
  onClick?(): void;
  onCancel?(): void;
  cancelLabel?: string;
  /** Cancel takes the focus when the dialog opens: the safe choice before something final. */
  focusCancel?: boolean;
  /** Aligned with the form's fields rather than at the dialog's end. */
  start?: boolean;
  error?: string | null;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <FormError message={error} />
      <div className={start ? "dialog-actions start" : "dialog-actions"}>
        {children}
        {onCancel && (
          <button
            type="button"
            className="button ghost"
            onClick={onCancel}
            data-autofocus={focusCancel || undefined}
          >
            {cancelLabel ?? t("common.cancel")}
          </button>
        )}
        <button
          type={onClick ? "button" : "submit"}
          className={`button ${tone}`}
          disabled={busy || disabled}
          onClick={onClick}
        >
          {busy && busyLabel ? busyLabel : label}
        </button>
      </div>
    </>
  );
}

let zones: string[] | null = null;
export function timeZones(): string[] {
  if (!zones) {
    try {
      zones = Intl.supportedValuesOf("timeZone");
    } catch {
      zones = [browserTimeZone(), "UTC"];
    }
    if (!zones.includes("UTC")) zones = ["UTC", ...zones];
  }
  return zones;
}

export function TimeZoneSelect({
  id,
  value,
  onChange,
  inheritLabel,
  describedBy,
}: {
  id: string;
  describedBy?: string;
  value: string | undefined;
  onChange(value: string | undefined): void;
  /** When given, an empty choice means "inherit" and is labelled with this text. */
  inheritLabel?: string;
}) {
  return (
    <select
      id={id}
      aria-describedby={describedBy}
      value={value ?? ""}
      onChange={(e) => onChange(e.target.value || undefined)}
    >
      {inheritLabel && <option value="">{inheritLabel}</option>}
      {timeZones().map((zone) => (
        <option key={zone} value={zone}>
          {zone.replaceAll("_", " ")}
        </option>
      ))}
    </select>
  );
}
