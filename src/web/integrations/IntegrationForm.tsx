import type { TFunction } from "i18next";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  INTEGRATION_CA_MAX,
  INTEGRATION_NAME_MAX,
  INTEGRATION_URL_MAX,
  type IntegrationOwner,
} from "../../contract/integrations";
import { ApiError, describeError } from "../lib/api";
import { Field, FormActions, TextField } from "../ui/fields";
import { Icon } from "../ui/icons";
import {
  createBody,
  type Draft,
  type DraftProblems,
  draftOf,
  draftProblems,
  hasProblems,
  newDraft,
  problemTarget,
  type SecretProblem,
  testRequest,
  updateBody,
  withKind,
} from "./integration-draft";
import {
  type Integration,
  type IntegrationCheck,
  type IntegrationKind,
  useSaveIntegration,
  useTestIntegration,
} from "./integrations-api";
import { SecretFields } from "./SecretFields";

/** PEM looks the same in every language. */
const PEM_EXAMPLE = "-----BEGIN CERTIFICATE-----";

type Errors = {
  name?: string;
  url?: string;
  caCertificate?: string;
  form?: string;
  /** By secret row key. */
  secrets: Record<string, string | undefined>;
};

type TestState =
  | { state: "idle" }
  | { state: "running" }
  | { state: "done"; check: IntegrationCheck }
  | { state: "failed"; message: string }
  | { state: "saveFirst" };

function secretMessage(problem: SecretProblem, t: TFunction): string {
  switch (problem) {
    case "nameMissing":
      return t("integrations.errors.headerNameMissing");
    case "nameInvalid":
      return t("integrations.errors.headerNameInvalid");
    case "nameTwice":
      return t("integrations.errors.headerTwice");
    case "savedSameName":
      return t("integrations.errors.headerSaved");
    case "valueMissing":
      return t("integrations.errors.valueMissing");
    case "replacementMissing":
      return t("integrations.errors.replacementMissing");
  }
}

function problemErrors(problems: DraftProblems, t: TFunction): Errors {
  return {
    name: problems.name ? t("integrations.errors.nameMissing") : undefined,
    url: problems.url ? t("integrations.errors.urlMissing") : undefined,
    secrets: Object.fromEntries(
      Object.entries(problems.secrets).map(([key, p]) => [key, secretMessage(p, t)]),
    ),
  };
}

/** A private address without the admin's permission: who may allow it, in the reader's terms. */
function addressMessage(isAdmin: boolean, t: TFunction) {
  return isAdmin ? t("integrations.errors.addressAdmin") : t("integrations.errors.addressMember");
}

/** A refused save: the address, the fields the server named, else the whole form. */
function fromServer(error: unknown, draft: Draft, isAdmin: boolean, t: TFunction): Errors {
  if (error instanceof ApiError && error.code === "address_not_allowed")
    return { url: addressMessage(isAdmin, t), secrets: {} };
  const errors: Errors = { secrets: {} };
  const named = error instanceof ApiError && error.status === 400 ? (error.problem?.errors ?? []) : [];
  for (const { path, message } of named) {
    const target = problemTarget(path, draft);
    if (typeof target === "object") errors.secrets[target.secret] ??= message;
    else if (target !== "form") errors[target] ??= message;
  }
  if (!errors.name && !errors.url && !errors.caCertificate && Object.keys(errors.secrets).length === 0)
    errors.form = t("integrations.form.saveFailed", { reason: describeError(error) });
  return errors;
}

/** What an admin chose for a member's integration, which the member sees but cannot change. */
function AdminChoices({ saved }: { saved: Integration }) {
  const { t } = useTranslation();
  const notes = [
    saved.allowPrivate && t("integrations.form.adminSetPrivate"),
    saved.skipTlsVerify && t("integrations.form.adminSetTls"),
    saved.allowActions && t("integrations.form.adminSetActions"),
  ].filter((note): note is string => Boolean(note));
  return notes.map((note) => (
    <p key={note} className="field-hint admin-set">
      <Icon name="shield" size={14} /> {note}
    </p>
  ));
}

/** The Test button's answer, read out when it changes. */
function TestResult({ test }: { test: TestState }) {
  const { t } = useTranslation();
  return (
    <div className={`test-result is-${test.state === "done" ? (test.check.ok ? "ok" : "bad") : test.state}`}>
      <p role="status" className="test-result-text">
        {test.state === "running" && t("integrations.test.running")}
        {test.state === "done" && (
          <>
            <Icon name={test.check.ok ? "check" : "alert"} size={16} />
            <strong>
              {test.check.ok
                ? t("integrations.test.ok", { latency: test.check.latencyMs })
                : t("integrations.test.bad", { latency: test.check.latencyMs })}
            </strong>{" "}
            <span>{test.check.detail}</span>
          </>
        )}
        {test.state === "failed" && (
          <>
            <Icon name="alert" size={16} />
            <span>{test.message}</span>
          </>
        )}
        {test.state === "saveFirst" && t("integrations.test.saveFirst")}
      </p>
    </div>
  );
}

/**
 * A new integration, or the changes to a saved one: its kind, name, address, secrets, certificate
 * and (admins only) the home network and TLS choices. Test tries the form as it stands.
 */
export function IntegrationForm({
  owner,
  saved,
  kinds,
  isAdmin,
  onSaved,
  onCancel,
}: {
  owner: IntegrationOwner;
  saved?: Integration;
  kinds: readonly IntegrationKind[];
  isAdmin: boolean;
  onSaved(integration: Integration, created: boolean): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const kindOf = (name: string) => kinds.find((k) => k.kind === name);
  const [draft, setDraft] = useState<Draft>(() =>
    saved ? draftOf(saved, kindOf(saved.kind)) : newDraft(kinds[0]),
  );
  const [errors, setErrors] = useState<Errors>({ secrets: {} });
  const [test, setTest] = useState<TestState>({ state: "idle" });
  const [certificateOpen, setCertificateOpen] = useState(Boolean(draft.caCertificate));
  const save = useSaveIntegration();
  const runTest = useTestIntegration();
  const kind = kindOf(draft.kind);
  // After a refused submit, the first field named takes the focus.
  const focusInvalid = useRef(false);
  useEffect(() => {
    if (!focusInvalid.current) return;
    focusInvalid.current = false;
    const field = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (field) field.focus();
    else formRef.current?.querySelector<HTMLElement>(".form-error")?.scrollIntoView({ block: "nearest" });
  });

  const edit = (patch: Partial<Draft>, field?: "name" | "url" | "caCertificate") => {
    setDraft((d) => ({ ...d, ...patch }));
    setErrors((e) => (field ? { ...e, [field]: undefined, form: undefined } : { ...e, form: undefined }));
    setTest({ state: "idle" });
  };

  const showErrors = (found: Errors) => {
    if (found.caCertificate) setCertificateOpen(true);
    focusInvalid.current = true;
    setErrors(found);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = draftProblems(draft);
    if (hasProblems(problems)) return showErrors(problemErrors(problems, t));
    const input = saved
      ? { id: saved.id, body: updateBody(draft, saved) }
      : { body: createBody(draft, owner) };
    if (saved && Object.keys(input.body).length === 0) return onSaved(saved, false);
    save.mutate(input, {
      onSuccess: (result) => onSaved(result, !saved),
      onError: (error) => showErrors(fromServer(error, draft, isAdmin, t)),
    });
  };

  const testNow = () => {
    if (!draft.url.trim()) return showErrors({ ...errors, url: t("integrations.errors.urlMissing") });
    const { body } = testRequest(draft, saved);
    if (!body) return setTest({ state: "saveFirst" });
    setTest({ state: "running" });
    runTest.mutate(body, {
      onSuccess: (check) => setTest({ state: "done", check }),
      onError: (error) => {
        const address = error instanceof ApiError && error.code === "address_not_allowed";
        if (address) setErrors((e) => ({ ...e, url: addressMessage(isAdmin, t) }));
        setTest({
          state: "failed",
          message: address
            ? addressMessage(isAdmin, t)
            : t("integrations.test.failed", { reason: describeError(error) }),
        });
      },
    });
  };

  return (
    <form
      ref={formRef}
      className="integration-form"
      onSubmit={submit}
      noValidate
      aria-labelledby={titleId}
      data-integration-form={saved ? saved.id : "new"}
    >
      <h3 id={titleId} className="section-title">
        {saved ? t("integrations.form.editTitle", { name: saved.name }) : t("integrations.form.addTitle")}
      </h3>
      {saved ? (
        <p className="integration-kind-fixed">
          <span className="muted">{t("integrations.form.kind")}</span>{" "}
          <strong>{kind?.label ?? saved.kind}</strong>
        </p>
      ) : (
        <Field label={t("integrations.form.kind")} hint={kind?.description}>
          {(id, describedBy) => (
            <select
              id={id}
              value={draft.kind}
              aria-describedby={describedBy}
              onChange={(e) => {
                setDraft((d) => withKind(d, kindOf(e.target.value)));
                setErrors({ secrets: {} });
                setTest({ state: "idle" });
              }}
            >
              {kinds.map((k) => (
                <option key={k.kind} value={k.kind}>
                  {k.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <TextField
        label={t("common.name")}
        value={draft.name}
        error={errors.name}
        hint={t("integrations.form.nameHint")}
        maxLength={INTEGRATION_NAME_MAX}
        autoComplete="off"
        onChange={(name) => edit({ name }, "name")}
      />
      <TextField
        label={t("integrations.form.url")}
        value={draft.url}
        error={errors.url}
        type="url"
        inputMode="url"
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        maxLength={INTEGRATION_URL_MAX}
        placeholder={kind?.urlPlaceholder}
        onChange={(url) => edit({ url }, "url")}
      />
      <SecretFields
        kind={kind}
        draft={draft}
        errors={errors.secrets}
        onChange={(secrets) => {
          setDraft((d) => ({ ...d, secrets }));
          setErrors((e) => ({ ...e, secrets: {}, form: undefined }));
          setTest({ state: "idle" });
        }}
      />
      <details
        className="certificate-disclosure"
        open={certificateOpen}
        onToggle={(e) => setCertificateOpen(e.currentTarget.open)}
      >
        <summary>
          {t("integrations.form.certificateTitle")}
          {draft.caCertificate.trim() && !certificateOpen && (
            <span className="status-pill is-on">{t("integrations.form.certificateSet")}</span>
          )}
        </summary>
        <Field
          label={t("integrations.form.certificate")}
          hint={t("integrations.form.certificateHint")}
          error={errors.caCertificate}
        >
          {(id, describedBy) => (
            <textarea
              id={id}
              className="certificate-input"
              rows={5}
              spellCheck={false}
              autoCapitalize="off"
              maxLength={INTEGRATION_CA_MAX}
              placeholder={PEM_EXAMPLE}
              value={draft.caCertificate}
              aria-invalid={errors.caCertificate ? true : undefined}
              aria-describedby={describedBy}
              onChange={(e) => edit({ caCertificate: e.target.value }, "caCertificate")}
            />
          )}
        </Field>
      </details>
      {isAdmin ? (
        <fieldset className="admin-options">
          <legend className="field-label">
            <Icon name="shield" size={14} /> {t("integrations.form.adminOnly")}
          </legend>
          <label className="checkbox-row admin-option">
            <input
              type="checkbox"
              checked={draft.allowPrivate}
              onChange={(e) => edit({ allowPrivate: e.target.checked }, "url")}
            />
            <span>
              <strong>{t("integrations.form.allowPrivate")}</strong>
              <span className="muted">{t("integrations.form.allowPrivateHint")}</span>
            </span>
          </label>
          <label className="checkbox-row admin-option">
            <input
              type="checkbox"
              checked={draft.skipTlsVerify}
              onChange={(e) => edit({ skipTlsVerify: e.target.checked })}
            />
            <span>
              <strong>
                {t("integrations.form.skipTls")}{" "}
                <span className="status-pill is-danger">{t("integrations.form.unsafe")}</span>
              </strong>
              <span className="muted">{t("integrations.form.skipTlsHint")}</span>
            </span>
          </label>
          <label className="checkbox-row admin-option">
            <input
              type="checkbox"
              checked={draft.allowActions}
              onChange={(e) => edit({ allowActions: e.target.checked })}
            />
            <span>
              <strong>{t("integrations.form.allowActions")}</strong>
              <span className="muted">{t("integrations.form.allowActionsHint")}</span>
            </span>
          </label>
        </fieldset>
      ) : (
        saved && <AdminChoices saved={saved} />
      )}
      <TestResult test={test} />
      <FormActions
        start
        label={saved ? t("integrations.form.save") : t("integrations.form.add")}
        busyLabel={t("common.saving")}
        busy={save.isPending}
        onCancel={onCancel}
        error={errors.form}
      >
        <button type="button" className="button" disabled={runTest.isPending} onClick={testNow}>
          <Icon name="refresh" size={14} /> {t("integrations.test.button")}
        </button>
      </FormActions>
    </form>
  );
}
