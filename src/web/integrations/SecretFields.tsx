import { type Ref, useEffect, useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import {
  INTEGRATION_SECRET_MAX,
  INTEGRATION_SECRETS_MAX,
  type IntegrationKind,
} from "../../contract/integrations";
import { Icon, IconButton } from "../ui/icons";
import { canAddHeader, type Draft, emptyHeader, type SecretRow } from "./integration-draft";

/** Header names read the same in every language. */
const HEADER_EXAMPLE = "X-Api-Key";

/** The input for a secret's value: never shown back, never offered to a password manager. */
function SecretInput({
  id,
  label,
  value,
  error,
  hint,
  onChange,
  inputRef,
}: {
  id: string;
  label: string;
  value: string;
  error?: string;
  hint?: string;
  onChange(value: string): void;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className={`field secret-input${error ? " has-error" : ""}`}>
      <label htmlFor={id}>{label}</label>
      <input
        ref={inputRef}
        id={id}
        type="password"
        autoComplete="off"
        spellCheck={false}
        maxLength={INTEGRATION_SECRET_MAX}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** A secret set on the server: "Set", and Replace or Remove (then Keep or Undo). */
function SavedSecret({
  row,
  label,
  hint,
  error,
  onChange,
}: {
  row: SecretRow;
  label: string;
  hint?: string;
  error?: string;
  onChange(patch: Partial<SecretRow>): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLDivElement>(null);
  // The button pressed goes away with the choice: the focus follows to what replaced it.
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    if (row.action === "replace") input.current?.focus();
    else box.current?.querySelector<HTMLButtonElement>(".secret-actions button")?.focus();
  }, [row.action]);
  const choose = (action: SecretRow["action"]) => {
    moved.current = true;
    onChange({ action, value: "" });
  };

  return (
    <div className="secret-saved" data-secret={row.name} ref={box}>
      <div className="secret-saved-line">
        <span className="secret-name">{label}</span>
        {row.action === "remove" ? (
          <span className="status-pill is-warn">{t("integrations.secrets.removing")}</span>
        ) : (
          <span className="status-pill is-on">{t("integrations.secrets.set")}</span>
        )}
        <span className="secret-actions">
          {row.action === "keep" ? (
            <>
              <button
                type="button"
                className="button ghost small"
                aria-label={t("integrations.secrets.replaceNamed", { name: label })}
                onClick={() => choose("replace")}
              >
                {t("integrations.secrets.replace")}
              </button>
              {!row.required && (
                <button
                  type="button"
                  className="button ghost small danger-text"
                  aria-label={t("integrations.secrets.removeNamed", { name: label })}
                  onClick={() => choose("remove")}
                >
                  {t("integrations.secrets.remove")}
                </button>
              )}
            </>
          ) : (
            <button
              type="button"
              className="button ghost small"
              aria-label={
                row.action === "remove"
                  ? t("integrations.secrets.undoNamed", { name: label })
                  : t("integrations.secrets.keepNamed", { name: label })
              }
              onClick={() => choose("keep")}
            >
              {row.action === "remove" ? t("integrations.secrets.undo") : t("integrations.secrets.keep")}
            </button>
          )}
        </span>
      </div>
      {row.action === "replace" && (
        <SecretInput
          id={`${id}-value`}
          inputRef={input}
          label={t("integrations.secrets.newValue", { name: label })}
          value={row.value}
          error={error}
          hint={hint}
          onChange={(value) => onChange({ value })}
        />
      )}
      {row.action === "remove" && <p className="field-hint">{t("integrations.secrets.removedOnSave")}</p>}
    </div>
  );
}

/** A request header not saved yet (custom): its name and value, and a button that drops the row. */
function NewHeader({
  row,
  number,
  error,
  onChange,
  onRemove,
}: {
  row: SecretRow;
  number: number;
  error?: string;
  onChange(patch: Partial<SecretRow>): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const errorId = `${id}-error`;
  const name = row.name.trim();
  return (
    <div className={`header-row${error ? " has-error" : ""}`} data-header-row={row.key}>
      <div className="field header-name">
        <label htmlFor={`${id}-name`}>{t("integrations.secrets.headerName", { number })}</label>
        <input
          id={`${id}-name`}
          value={row.name}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={64}
          placeholder={HEADER_EXAMPLE}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => onChange({ name: e.target.value })}
        />
      </div>
      <div className="field header-value">
        <label htmlFor={`${id}-value`}>{t("integrations.secrets.headerValue", { number })}</label>
        <input
          id={`${id}-value`}
          type="password"
          autoComplete="off"
          spellCheck={false}
          maxLength={INTEGRATION_SECRET_MAX}
          value={row.value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => onChange({ value: e.target.value })}
        />
      </div>
      <IconButton
        icon="x"
        size={16}
        className="header-remove"
        label={
          name
            ? t("integrations.secrets.removeHeaderNamed", { name })
            : t("integrations.secrets.removeHeader", { number })
        }
        onClick={onRemove}
      />
      {error && (
        <p className="field-error header-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The secrets of the form: the kind's own fields (a token, a password) or, for a custom API, any
 * request headers. Values are write-only: a saved one shows as set, to be replaced or removed.
 */
export function SecretFields({
  kind,
  draft,
  errors,
  onChange,
}: {
  kind: IntegrationKind | undefined;
  draft: Draft;
  errors: Record<string, string | undefined>;
  onChange(secrets: SecretRow[]): void;
}) {
  const { t } = useTranslation();
  const box = useRef<HTMLFieldSetElement>(null);
  const addId = useId();
  /** A row to put the focus in once it is drawn (one just added), or the Add button (one just dropped). */
  const focusNext = useRef<string | null>(null);
  const rows = draft.secrets;
  useEffect(() => {
    const target = focusNext.current;
    if (!target) return;
    focusNext.current = null;
    const row = box.current?.querySelector<HTMLInputElement>(`[data-header-row="${target}"] input`);
    (row ?? document.getElementById(addId))?.focus();
  });
  if (!kind?.headerSecrets && rows.length === 0) return null;

  const update = (key: string, patch: Partial<SecretRow>) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  const fields = new Map((kind?.secrets ?? []).map((field) => [field.name, field]));
  const headers = rows.filter((row) => !row.field);
  const canAdd = canAddHeader(draft);

  return (
    <fieldset className="secret-fields" ref={box}>
      <legend className="field-label">
        {kind?.headerSecrets ? t("integrations.secrets.headersTitle") : t("integrations.secrets.title")}
      </legend>
      <p className="field-hint">
        {kind?.headerSecrets ? t("integrations.secrets.headersHint") : t("integrations.secrets.hint")}
      </p>
      {rows
        .filter((row) => row.field)
        .map((row) => {
          const field = fields.get(row.name);
          const label = field?.label ?? row.name;
          const hint = field?.help || undefined;
          return row.saved ? (
            <SavedSecret
              key={row.key}
              row={row}
              label={label}
              hint={hint}
              error={errors[row.key]}
              onChange={(patch) => update(row.key, patch)}
            />
          ) : (
            <SecretInput
              key={row.key}
              id={`${addId}-${row.key}`}
              label={row.required ? label : t("integrations.secrets.optional", { label })}
              value={row.value}
              error={errors[row.key]}
              hint={hint}
              onChange={(value) => update(row.key, { value })}
            />
          );
        })}
      {headers.map((row, index) =>
        row.saved ? (
          <SavedSecret
            key={row.key}
            row={row}
            label={row.name}
            error={errors[row.key]}
            onChange={(patch) => update(row.key, patch)}
          />
        ) : (
          <NewHeader
            key={row.key}
            row={row}
            number={index + 1}
            error={errors[row.key]}
            onChange={(patch) => update(row.key, patch)}
            onRemove={() => {
              focusNext.current = "add";
              onChange(rows.filter((r) => r.key !== row.key));
            }}
          />
        ),
      )}
      {kind?.headerSecrets && (
        <div className="secret-add">
          <button
            type="button"
            id={addId}
            className="button ghost small"
            disabled={!canAdd}
            onClick={() => {
              const row = emptyHeader();
              focusNext.current = row.key;
              onChange([...rows, row]);
            }}
          >
            <Icon name="plus" size={14} /> {t("integrations.secrets.addHeader")}
          </button>
          {!canAdd && (
            <span className="field-hint">
              {t("integrations.secrets.atMost", { max: INTEGRATION_SECRETS_MAX })}
            </span>
          )}
        </div>
      )}
    </fieldset>
  );
}
