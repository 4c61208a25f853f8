import { type FormEvent, useState } from "react";
import { ApiError, describeError } from "../lib/api";
import { API_KEY_SCOPES, type ApiKeyScope, type CreatedApiKey, operatorsApi } from "../lib/operators-api";
import { Field } from "../ui/fields";

export const SCOPE_LABELS: Record<ApiKeyScope, { label: string; hint: string }> = {
  read: { label: "Read", hint: "See your dashboards, widgets, settings and notifications." },
  write: { label: "Write", hint: "Everything Read does, and change, delete and send notifications." },
  "notifications:write": {
    label: "Send notifications",
    hint: "Only post notifications: for a cron job or an uptime monitor.",
  },
};

const EXPIRIES: { days: number | null; label: string }[] = [
  { days: 30, label: "In 30 days" },
  { days: 90, label: "In 90 days" },
  { days: 365, label: "In a year" },
  { days: null, label: "Never" },
];

type Errors = Partial<Record<"name" | "scopes" | "form", string>>;

/** Name, scopes and lifetime of a new key. */
export function ApiKeyForm({ onCreated }: { onCreated(key: CreatedApiKey): void }) {
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<ApiKeyScope[]>(["read"]);
  const [expires, setExpires] = useState("90");
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  const toggle = (scope: ApiKeyScope, on: boolean) => {
    setScopes((list) => (on ? [...list, scope] : list.filter((s) => s !== scope)));
    setErrors((e) => ({ ...e, scopes: undefined, form: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Errors = {};
    if (!name.trim()) found.name = "Name the key after what will use it";
    if (scopes.length === 0) found.scopes = "Choose at least one thing the key may do";
    setErrors(found);
    if (found.name) return document.getElementById("key-name")?.focus();
    if (found.scopes) return;
    setBusy(true);
    try {
      const created = await operatorsApi.keys.create({
        name: name.trim(),
        // In the order the server lists them, whatever order they were ticked in.
        scopes: API_KEY_SCOPES.filter((s) => scopes.includes(s)),
        ...(expires === "never" ? {} : { expiresInDays: Number(expires) }),
      });
      setName("");
      onCreated(created);
    } catch (error) {
      const fields = error instanceof ApiError ? error.fieldErrors() : {};
      setErrors(
        fields.name || fields.scopes
          ? { name: fields.name, scopes: fields.scopes }
          : { form: `Couldn't create the key: ${describeError(error)}` },
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="key-form" onSubmit={submit} noValidate aria-labelledby="key-form-title">
      <h3 id="key-form-title" className="section-title">
        New API key
      </h3>
      <Field
        id="key-name"
        label="Name"
        error={errors.name}
        hint="What will use it: “Uptime Kuma”, “backup script”."
      >
        {(id, describedBy) => (
          <input
            id={id}
            value={name}
            maxLength={100}
            autoComplete="off"
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={describedBy}
            onChange={(e) => {
              setName(e.target.value);
              setErrors((x) => ({ ...x, name: undefined, form: undefined }));
            }}
          />
        )}
      </Field>
      <fieldset className="scope-list" aria-describedby={errors.scopes ? "key-scopes-error" : undefined}>
        <legend className="field-label">What it may do</legend>
        {API_KEY_SCOPES.map((scope) => (
          <label key={scope} className="checkbox-row scope-option">
            <input
              type="checkbox"
              checked={scopes.includes(scope)}
              onChange={(e) => toggle(scope, e.target.checked)}
            />
            <span>
              <strong>{SCOPE_LABELS[scope].label}</strong>{" "}
              <span className="muted">{SCOPE_LABELS[scope].hint}</span>
            </span>
          </label>
        ))}
        {errors.scopes && (
          <p id="key-scopes-error" className="field-error" role="alert">
            {errors.scopes}
          </p>
        )}
      </fieldset>
      <Field label="Expires">
        {(id) => (
          <select id={id} value={expires} onChange={(e) => setExpires(e.target.value)}>
            {EXPIRIES.map((option) => (
              <option key={option.label} value={option.days === null ? "never" : String(option.days)}>
                {option.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {errors.form && (
        <p className="form-error" role="alert">
          {errors.form}
        </p>
      )}
      <div className="dialog-actions start">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? "Creating…" : "Create key"}
        </button>
      </div>
    </form>
  );
}
