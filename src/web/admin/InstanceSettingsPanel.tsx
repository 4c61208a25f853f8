import type { TFunction } from "i18next";
import { type FormEvent, useEffect, useId, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { ApiError, describeError } from "../lib/api";
import {
  type InstanceSettings,
  type UpdateInstanceSettings,
  useInstanceSettings,
  useSaveInstanceSettings,
} from "../lib/instance-settings-api";
import type { SignupMode } from "../lib/operators-api";
import { useDashboards } from "../lib/queries";
import { Field, FormActions } from "../ui/fields";
import { Icon } from "../ui/icons";
import { QueryError, Skeleton } from "../ui/States";
import { useToasts } from "../ui/Toasts";
import { SignInMethods } from "./SignupModeNote";

const MODES: SignupMode[] = ["invite", "open", "closed"];
/** Addresses read the same in every language. */
const NETWORKS_EXAMPLE = ["nas.lan", "192.168.1.0/24"].join("\n");

type Draft = { signupMode: SignupMode; networks: string; starter: string };
type Errors = Partial<Record<"signupMode" | "privateNetworks" | "starterDashboard" | "form", string>>;

const draftOf = (settings: InstanceSettings): Draft => ({
  signupMode: settings.signupMode.value,
  networks: settings.privateNetworks.value.join("\n"),
  starter: settings.starterDashboard.value ?? "",
});

/** One entry a line (commas work too), blank lines dropped. */
const entriesOf = (text: string) =>
  text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean);

/** What the settings the admin may change would become: only those that differ from the saved ones. */
function changesOf(settings: InstanceSettings, draft: Draft): UpdateInstanceSettings {
  const changes: UpdateInstanceSettings = {};
  if (settings.signupMode.editable && draft.signupMode !== settings.signupMode.value)
    changes.signupMode = draft.signupMode;
  const networks = entriesOf(draft.networks);
  if (settings.privateNetworks.editable && networks.join("\n") !== settings.privateNetworks.value.join("\n"))
    changes.privateNetworks = networks;
  if ((draft.starter || null) !== settings.starterDashboard.value)
    changes.starterDashboard = draft.starter || null;
  return changes;
}

/** Which line of the list a server problem is about ("/privateNetworks/2" is the third entry). */
function fromServer(error: unknown, entries: string[], t: TFunction): Errors {
  if (!(error instanceof ApiError) || !error.problem?.errors?.length)
    return { form: t("admin.settings.saveFailed", { reason: describeError(error) }) };
  const errors: Errors = {};
  for (const { path } of error.problem.errors) {
    const [, field, index] = path.split("/");
    if (field === "privateNetworks" && index !== undefined) {
      const entry = entries[Number(index)] ?? "";
      errors.privateNetworks ??= t("admin.settings.networks.badEntry", { entry, line: Number(index) + 1 });
    } else if (field === "privateNetworks") errors.privateNetworks ??= t("admin.settings.networks.invalid");
    else if (field === "starterDashboard") errors.starterDashboard ??= t("admin.settings.starter.invalid");
    else if (field === "signupMode") errors.signupMode ??= describeError(error);
  }
  return Object.keys(errors).length ? errors : { form: describeError(error) };
}

/** "Set by SIGNUP_MODE in the server's environment": the value cannot be changed here. */
function FromEnvironment({ variable }: { variable: string | null }) {
  return (
    <p className="setting-locked">
      <Icon name="shield" size={14} />
      <span>
        <Trans
          i18nKey="admin.settings.fromEnvironment"
          values={{ variable }}
          components={{ code: <code /> }}
        />
      </span>
    </p>
  );
}

function ModeChoice({
  settings,
  value,
  error,
  onChange,
}: {
  settings: InstanceSettings["signupMode"];
  value: SignupMode;
  error?: string;
  onChange(mode: SignupMode): void;
}) {
  const { t } = useTranslation();
  const name = useId();
  const words: Record<SignupMode, { name: string; sentence: string }> = {
    invite: { name: t("admin.signup.modes.invite.name"), sentence: t("admin.signup.modes.invite.sentence") },
    open: { name: t("admin.signup.modes.open.name"), sentence: t("admin.signup.modes.open.sentence") },
    closed: { name: t("admin.signup.modes.closed.name"), sentence: t("admin.signup.modes.closed.sentence") },
  };
  return (
    <fieldset className="setting mode-choice" aria-describedby={error ? `${name}-error` : undefined}>
      <legend className="setting-title">{t("admin.settings.signupMode")}</legend>
      {settings.editable ? (
        <div className="mode-options">
          {MODES.map((mode) => (
            <label key={mode} className={`mode-option${mode === value ? " is-selected" : ""}`}>
              <input
                type="radio"
                name={name}
                value={mode}
                checked={mode === value}
                onChange={() => onChange(mode)}
              />
              <span>
                <strong>{words[mode].name}</strong>
                <span className="muted">{words[mode].sentence}</span>
              </span>
            </label>
          ))}
        </div>
      ) : (
        <>
          <p className="mode-fixed">
            <span className="status-pill is-on">{words[settings.value].name}</span>{" "}
            {words[settings.value].sentence}
          </p>
          <FromEnvironment variable={settings.variable} />
        </>
      )}
      {error && (
        <p className="field-error" id={`${name}-error`} role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

function Networks({
  settings,
  value,
  error,
  onChange,
}: {
  settings: InstanceSettings["privateNetworks"];
  value: string;
  error?: string;
  onChange(text: string): void;
}) {
  const { t } = useTranslation();
  if (!settings.editable)
    return (
      <div className="setting" id="admin-private-networks" tabIndex={-1}>
        <h3 className="setting-title">{t("admin.settings.networks.label")}</h3>
        <p className="muted">{t("admin.settings.networks.what")}</p>
        <ul className="network-list">
          {settings.value.map((entry) => (
            <li key={entry}>
              <code>{entry}</code>
            </li>
          ))}
        </ul>
        <FromEnvironment variable={settings.variable} />
      </div>
    );
  return (
    <div className="setting">
      <Field
        id="admin-private-networks"
        label={t("admin.settings.networks.label")}
        error={error}
        hint={<Trans i18nKey="admin.settings.networks.hint" components={{ code: <code /> }} />}
      >
        {(id, describedBy) => (
          <textarea
            id={id}
            className="network-input"
            rows={4}
            spellCheck={false}
            autoCapitalize="off"
            placeholder={NETWORKS_EXAMPLE}
            value={value}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            onChange={(e) => onChange(e.target.value)}
          />
        )}
      </Field>
    </div>
  );
}

function StarterChoice({
  settings,
  value,
  error,
  onChange,
}: {
  settings: InstanceSettings["starterDashboard"];
  value: string;
  error?: string;
  onChange(id: string): void;
}) {
  const { t } = useTranslation();
  const dashboards = useDashboards();
  const list = dashboards.data ?? [];
  // The chosen one may be a dashboard the admin no longer lists (another's, unshared since).
  const missing = settings.value && !list.some((d) => d.id === settings.value);
  return (
    <div className="setting">
      <Field
        id="admin-starter-dashboard"
        label={t("admin.settings.starter.label")}
        error={error}
        hint={t("admin.settings.starter.hint")}
      >
        {(id, describedBy) => (
          <select
            id={id}
            value={value}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            onChange={(e) => onChange(e.target.value)}
          >
            <option value="">{t("admin.settings.starter.none")}</option>
            {missing && <option value={settings.value!}>{settings.name}</option>}
            {list.map((dashboard) => (
              <option key={dashboard.id} value={dashboard.id}>
                {dashboard.owner
                  ? t("admin.settings.starter.ofOwner", { name: dashboard.name, owner: dashboard.owner.name })
                  : dashboard.name}
              </option>
            ))}
          </select>
        )}
      </Field>
    </div>
  );
}

function SettingsForm({ settings }: { settings: InstanceSettings }) {
  const { t } = useTranslation();
  const toasts = useToasts();
  const save = useSaveInstanceSettings();
  const [draft, setDraft] = useState(() => draftOf(settings));
  const [errors, setErrors] = useState<Errors>({});
  const changes = changesOf(settings, draft);
  const changed = Object.keys(changes).length > 0;
  // A link to one setting (the Status widget's "Administration › Private networks") lands on it
  // once the form is there, which is after the page has loaded.
  useEffect(() => {
    const target = window.location.hash ? document.getElementById(window.location.hash.slice(1)) : null;
    if (target?.closest(".instance-settings")) {
      target.scrollIntoView({ block: "center" });
      target.focus({ preventScroll: true });
    }
  }, []);

  const edit = (patch: Partial<Draft>, field: keyof Errors) => {
    setDraft((d) => ({ ...d, ...patch }));
    setErrors((e) => ({ ...e, [field]: undefined, form: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!changed) return;
    save.mutate(changes, {
      onSuccess: (saved) => {
        setDraft(draftOf(saved));
        setErrors({});
        toasts.show({ tone: "success", message: t("admin.settings.saved") });
      },
      onError: (error) => {
        const found = fromServer(error, entriesOf(draft.networks), t);
        setErrors(found);
        if (found.privateNetworks) document.getElementById("admin-private-networks")?.focus();
      },
    });
  };

  return (
    <form
      className="instance-settings"
      onSubmit={submit}
      noValidate
      aria-label={t("admin.settings.formLabel")}
    >
      <ModeChoice
        settings={settings.signupMode}
        value={draft.signupMode}
        error={errors.signupMode}
        onChange={(signupMode) => edit({ signupMode }, "signupMode")}
      />
      <SignInMethods />
      <Networks
        settings={settings.privateNetworks}
        value={draft.networks}
        error={errors.privateNetworks}
        onChange={(networks) => edit({ networks }, "privateNetworks")}
      />
      <StarterChoice
        settings={settings.starterDashboard}
        value={draft.starter}
        error={errors.starterDashboard}
        onChange={(starter) => edit({ starter }, "starterDashboard")}
      />
      <FormActions
        start
        label={t("admin.settings.save")}
        busyLabel={t("admin.settings.saving")}
        busy={save.isPending}
        disabled={!changed}
        error={errors.form}
      />
    </form>
  );
}

/** The instance's settings: who may sign up, the private networks it may reach, where new accounts start. */
export function InstanceSettingsPanel() {
  const settings = useInstanceSettings();
  if (settings.isPending) return <Skeleton width="100%" height={220} />;
  if (settings.isError) return <QueryError query={settings} />;
  return <SettingsForm settings={settings.data} />;
}
