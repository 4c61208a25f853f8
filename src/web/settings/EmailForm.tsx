import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { EMAIL_MAX } from "../../contract/account-rules";
import { ApiError, describeError } from "../lib/api";
import { useInstance } from "../lib/operators-queries";
import { FormActions, TextField } from "../ui/fields";
import { useToasts } from "../ui/Toasts";
import { accountApi, type Profile } from "./account-api";
import { PasswordField } from "./PasswordField";
import { useApplyProfile } from "./profile-cache";
import { useFormDisclosure } from "./use-form-disclosure";

type Errors = Partial<Record<"newEmail" | "currentPassword" | "form", string>>;

/** Roughly an address: the server's check decides, this one spares a round trip for a typo. */
const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/**
 * Settings › Profile › Email: the address the account signs in with, changed with the current
 * password. An account without a password (single sign-on only) keeps the provider's address.
 */
export function EmailForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const toasts = useToasts();
  const applyProfile = useApplyProfile();
  const sso = useInstance().data?.sso ?? null;
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Errors>({});

  const { open, show, close, toggle, form } = useFormDisclosure(() => {
    setEmail("");
    setPassword("");
    setErrors({});
  });
  const change = useMutation({
    mutationFn: accountApi.changeEmail,
    onSuccess: (saved) => {
      applyProfile(saved);
      close();
      toasts.show({ tone: "success", message: t("settings.profile.email.changed", { email: saved.email }) });
    },
    onError: (error) => {
      const code = error instanceof ApiError ? error.code : null;
      if (code === "wrong_password") setErrors({ currentPassword: t("settings.profile.password.wrong") });
      else if (code === "email_taken") setErrors({ newEmail: t("settings.profile.email.taken") });
      else if (error instanceof ApiError && error.fieldErrors().newEmail)
        setErrors({ newEmail: t("errors.auth.invalid_email") });
      else setErrors({ form: describeError(error) });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const newEmail = email.trim();
    const found: Errors = {};
    if (!looksLikeEmail(newEmail) || newEmail.length > EMAIL_MAX)
      found.newEmail = t("errors.auth.invalid_email");
    else if (newEmail.toLowerCase() === profile.email.toLowerCase())
      found.newEmail = t("settings.profile.email.same");
    if (!password) found.currentPassword = t("auth.validation.passwordRequired");
    setErrors(found);
    if (Object.keys(found).length === 0) change.mutate({ newEmail, currentPassword: password });
  };

  return (
    <>
      <p className="profile-current">
        <span className="muted">{t("settings.profile.email.current")}</span>{" "}
        <strong className="profile-email">{profile.email}</strong>
      </p>
      {!profile.hasPassword && <p className="field-hint">{t("settings.profile.email.fromSso")}</p>}
      {profile.hasPassword && !open && (
        <div className="dialog-actions start">
          <button type="button" className="button" ref={toggle} onClick={show}>
            {t("settings.profile.email.change")}
          </button>
        </div>
      )}
      {profile.hasPassword && open && (
        <form ref={form} className="profile-form" onSubmit={submit} noValidate>
          <TextField
            label={t("settings.profile.email.new")}
            type="email"
            autoComplete="email"
            maxLength={EMAIL_MAX}
            value={email}
            error={errors.newEmail}
            hint={
              sso && !errors.newEmail
                ? t("settings.profile.email.ssoHint", { provider: sso.displayName })
                : undefined
            }
            onChange={(value) => {
              setEmail(value);
              setErrors((e) => ({ ...e, newEmail: undefined, form: undefined }));
            }}
          />
          <PasswordField
            label={t("settings.profile.password.current")}
            autoComplete="current-password"
            value={password}
            error={errors.currentPassword}
            onChange={(value) => {
              setPassword(value);
              setErrors((e) => ({ ...e, currentPassword: undefined, form: undefined }));
            }}
          />
          <FormActions
            start
            label={t("settings.profile.email.change")}
            busyLabel={t("common.saving")}
            busy={change.isPending}
            onCancel={close}
            error={errors.form}
          />
        </form>
      )}
    </>
  );
}
