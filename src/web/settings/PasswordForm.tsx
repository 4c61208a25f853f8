import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { PASSWORD_MAX, PASSWORD_MIN } from "../../contract/account-rules";
import { ApiError, describeError } from "../lib/api";
import { operatorKeys } from "../lib/operators-queries";
import { FormActions } from "../ui/fields";
import { useToasts } from "../ui/Toasts";
import { accountApi } from "./account-api";
import { PasswordField } from "./PasswordField";
import { useFormDisclosure } from "./use-form-disclosure";

type Errors = Partial<Record<"currentPassword" | "newPassword" | "form", string>>;

/**
 * Settings › Profile › Password: the current one, then the new one. The server signs every other
 * device out and keeps this one signed in (under a new cookie). An account that signs in with
 * single sign-on only has no password here, and is told so instead of shown a form.
 */
export function PasswordForm({ hasPassword }: { hasPassword: boolean }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const toasts = useToasts();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [errors, setErrors] = useState<Errors>({});

  const { open, show, close, toggle, form } = useFormDisclosure(() => {
    setCurrent("");
    setNext("");
    setErrors({});
  });
  const change = useMutation({
    mutationFn: accountApi.changePassword,
    onSuccess: ({ signedOut }) => {
      close();
      void client.invalidateQueries({ queryKey: operatorKeys.sessions });
      toasts.show({
        tone: "success",
        message:
          signedOut === 0
            ? t("settings.profile.password.changed")
            : t("settings.profile.password.changedSignedOut", { count: signedOut }),
      });
    },
    onError: (error) => {
      const code = error instanceof ApiError ? error.code : null;
      if (code === "wrong_password") setErrors({ currentPassword: t("settings.profile.password.wrong") });
      else if (code === "validation_failed" && error instanceof ApiError && error.fieldErrors().newPassword)
        setErrors({ newPassword: t("errors.auth.password_too_short") });
      else setErrors({ form: describeError(error) });
    },
  });

  if (!hasPassword) return <p className="field-hint">{t("settings.profile.password.ssoOnly")}</p>;
  if (!open)
    return (
      <div className="dialog-actions start">
        <button type="button" className="button" ref={toggle} onClick={show}>
          {t("settings.profile.password.change")}
        </button>
      </div>
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Errors = {};
    if (!current) found.currentPassword = t("auth.validation.passwordRequired");
    if (next.length < PASSWORD_MIN) found.newPassword = t("errors.auth.password_too_short");
    else if (next.length > PASSWORD_MAX) found.newPassword = t("errors.auth.password_too_long");
    else if (next === current) found.newPassword = t("settings.profile.password.same");
    setErrors(found);
    if (Object.keys(found).length === 0) change.mutate({ currentPassword: current, newPassword: next });
  };
  return (
    <form ref={form} className="profile-form" onSubmit={submit} noValidate>
      <PasswordField
        label={t("settings.profile.password.current")}
        autoComplete="current-password"
        value={current}
        error={errors.currentPassword}
        onChange={(value) => {
          setCurrent(value);
          setErrors((e) => ({ ...e, currentPassword: undefined, form: undefined }));
        }}
      />
      <PasswordField
        label={t("settings.profile.password.new")}
        autoComplete="new-password"
        hint={errors.newPassword ? undefined : t("settings.profile.password.hint")}
        value={next}
        error={errors.newPassword}
        onChange={(value) => {
          setNext(value);
          setErrors((e) => ({ ...e, newPassword: undefined, form: undefined }));
        }}
      />
      <FormActions
        start
        label={t("settings.profile.password.change")}
        busyLabel={t("common.saving")}
        busy={change.isPending}
        onCancel={close}
        error={errors.form}
      />
    </form>
  );
}
