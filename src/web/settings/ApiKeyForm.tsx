import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { t as translate } from "../i18n/i18n";
import { formErrors } from "../lib/api";
import { API_KEY_SCOPES, type ApiKeyScope, type CreatedApiKey, operatorsApi } from "../lib/operators-api";
import { Field, FormActions, TextField } from "../ui/fields";

/** A scope's name and what it allows, in the reader's language; null for a scope this app does not know. */
export function scopeText(scope: string): { label: string; hint: string } | null {
  switch (scope) {
    case "read":
      return {
        label: translate("settings.apiKeys.scopes.read.label"),
        hint: translate("settings.apiKeys.scopes.read.hint"),
      };
    case "write":
      return {
        label: translate("settings.apiKeys.scopes.write.label"),
        hint: translate("settings.apiKeys.scopes.write.hint"),
      };
    case "notifications:write":
      return {
        label: translate("settings.apiKeys.scopes.notificationsWrite.label"),
        hint: translate("settings.apiKeys.scopes.notificationsWrite.hint"),
      };
    default:
      return null;
  }
}

const EXPIRY_DAYS: (number | null)[] = [30, 90, 365, null];

type Errors = Partial<Record<"name" | "scopes" | "form", string>>;

/** Name, scopes and lifetime of a new key. */
export function ApiKeyForm({ onCreated }: { onCreated(key: CreatedApiKey): void }) {
  const { t } = useTranslation();
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
    if (!name.trim()) found.name = t("settings.apiKeys.form.nameMissing");
    if (scopes.length === 0) found.scopes = t("settings.apiKeys.form.scopesMissing");
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
      setErrors(
        formErrors(error, ["name", "scopes"], (reason) => t("settings.apiKeys.form.failed", { reason })),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="key-form" onSubmit={submit} noValidate aria-labelledby="key-form-title">
      <h3 id="key-form-title" className="section-title">
        {t("settings.apiKeys.form.title")}
      </h3>
      <TextField
        id="key-name"
        label={t("common.name")}
        error={errors.name}
        hint={t("settings.apiKeys.form.nameHint")}
        value={name}
        maxLength={100}
        autoComplete="off"
        onChange={(value) => {
          setName(value);
          setErrors((x) => ({ ...x, name: undefined, form: undefined }));
        }}
      />
      <fieldset className="scope-list" aria-describedby={errors.scopes ? "key-scopes-error" : undefined}>
        <legend className="field-label">{t("settings.apiKeys.form.scopes")}</legend>
        {API_KEY_SCOPES.map((scope) => (
          <label key={scope} className="checkbox-row scope-option">
            <input
              type="checkbox"
              checked={scopes.includes(scope)}
              onChange={(e) => toggle(scope, e.target.checked)}
            />
            <span>
              <strong>{scopeText(scope)?.label ?? scope}</strong>{" "}
              <span className="muted">{scopeText(scope)?.hint}</span>
            </span>
          </label>
        ))}
        {errors.scopes && (
          <p id="key-scopes-error" className="field-error" role="alert">
            {errors.scopes}
          </p>
        )}
      </fieldset>
      <Field label={t("settings.apiKeys.form.expires")}>
        {(id) => (
          <select id={id} value={expires} onChange={(e) => setExpires(e.target.value)}>
            {EXPIRY_DAYS.map((days) => (
              <option key={days ?? "never"} value={days === null ? "never" : String(days)}>
                {days === null
                  ? t("time.never")
                  : days === 365
                    ? t("settings.apiKeys.form.inAYear")
                    : t("settings.apiKeys.form.inDays", { count: days })}
              </option>
            ))}
          </select>
        )}
      </Field>
      <FormActions
        start
        label={t("settings.apiKeys.form.submit")}
        busyLabel={t("settings.apiKeys.form.creating")}
        busy={busy}
        error={errors.form}
      />
    </form>
  );
}
