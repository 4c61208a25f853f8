import type { ReactNode } from "react";
import { useId } from "react";
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
