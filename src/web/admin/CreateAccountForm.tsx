import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, formErrors } from "../lib/api";
import { type CreatedAccount, useCreateAccount } from "../lib/instance-settings-api";
import type { Role } from "../lib/operators-api";
import { SecretBox } from "../ui/CopyField";
import { FormActions, TextField } from "../ui/fields";
import { useToasts } from "../ui/Toasts";
import { RoleField } from "./RoleField";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
type Errors = Partial<Record<"name" | "email" | "password" | "form", string>>;

/** The generated password, told once. */
function CreatedBox({ created, onDone }: { created: CreatedAccount & { password: string }; onDone(): void }) {
  const { t } = useTranslation();
  return (
    <SecretBox
      titleId="created-account-title"
      title={t("admin.create.created.title", { name: created.user.name })}
      value={created.password}
      label={t("admin.create.created.password")}
      onDone={onDone}
    >
      {t("admin.create.created.text", { name: created.user.name, email: created.user.email })}
    </SecretBox>
  );
}

/**
 * An account an admin creates for someone: in every sign-up mode, and the only way in while
 * sign-up is closed. Without a password one is generated and shown once.
 */
export function CreateAccountForm() {
  const { t } = useTranslation();
  const toasts = useToasts();
  const create = useCreateAccount();
  const [values, setValues] = useState({ name: "", email: "", password: "" });
  const [role, setRole] = useState<Role>("member");
  const [errors, setErrors] = useState<Errors>({});
  const [created, setCreated] = useState<(CreatedAccount & { password: string }) | null>(null);

  const set = (field: keyof typeof values) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined, form: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const name = values.name.trim();
    const email = values.email.trim();
    const found: Errors = {};
    if (!name) found.name = t("admin.create.nameRequired");
    if (!EMAIL.test(email)) found.email = t("admin.invites.form.emailInvalid");
    if (values.password && values.password.length < 8) found.password = t("errors.auth.password_too_short");
    if (values.password.length > 128) found.password = t("errors.auth.password_too_long");
    setErrors(found);
    const first = (["name", "email", "password"] as const).find((field) => found[field]);
    if (first) return document.getElementById(`create-account-${first}`)?.focus();
    create.mutate(
      { name, email, role, ...(values.password ? { password: values.password } : {}) },
      {
        onSuccess: (answer) => {
          setValues({ name: "", email: "", password: "" });
          setRole("member");
          if (answer.password !== null) setCreated({ ...answer, password: answer.password });
          else toasts.show({ tone: "success", message: t("admin.create.done", { name: answer.user.name }) });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === "email_taken")
            setErrors({ email: t("admin.create.emailTaken") });
          else
            setErrors(
              formErrors(error, ["name", "email", "password"], (reason) =>
                t("admin.create.failed", { reason }),
              ),
            );
        },
      },
    );
  };

  if (created) return <CreatedBox created={created} onDone={() => setCreated(null)} />;
  return (
    <form
      className="invite-form account-form"
      onSubmit={submit}
      noValidate
      aria-label={t("admin.create.label")}
    >
      <div className="form-row">
        <TextField
          id="create-account-name"
          label={t("common.name")}
          error={errors.name}
          autoComplete="off"
          value={values.name}
          onChange={set("name")}
        />
        <TextField
          id="create-account-email"
          label={t("auth.email")}
          error={errors.email}
          type="email"
          autoComplete="off"
          placeholder={t("admin.invites.form.emailPlaceholder")}
          value={values.email}
          onChange={set("email")}
        />
      </div>
      <div className="form-row">
        <TextField
          id="create-account-password"
          label={t("admin.create.password")}
          hint={t("admin.create.passwordHint")}
          error={errors.password}
          autoComplete="new-password"
          spellCheck={false}
          value={values.password}
          onChange={set("password")}
        />
        <RoleField value={role} onChange={setRole} />
      </div>
      <FormActions
        start
        label={t("admin.create.submit")}
        busyLabel={t("admin.create.creating")}
        busy={create.isPending}
        error={errors.form}
      />
    </form>
  );
}
