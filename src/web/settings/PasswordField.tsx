import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "../ui/fields";

/** A labelled password input with a button that shows what was typed (instead of a second "repeat" field). */
export function PasswordField({
  label,
  hint,
  error,
  value,
  autoComplete,
  onChange,
}: {
  label: string;
  hint?: ReactNode;
  error?: string;
  value: string;
  autoComplete: "current-password" | "new-password";
  onChange(value: string): void;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <Field label={label} hint={hint} error={error}>
      {(id, describedBy) => (
        <div className="password-field">
          <input
            id={id}
            type={shown ? "text" : "password"}
            autoComplete={autoComplete}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
          />
          <button
            type="button"
            className="button ghost small password-toggle"
            aria-pressed={shown}
            aria-controls={id}
            onClick={() => setShown((v) => !v)}
          >
            <span aria-hidden="true">{shown ? t("auth.hide") : t("auth.show")}</span>
            <span className="visually-hidden">{shown ? t("auth.hidePassword") : t("auth.showPassword")}</span>
          </button>
        </div>
      )}
    </Field>
  );
}
