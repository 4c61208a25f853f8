import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { formErrors } from "../lib/api";
import { type CreatedInvite, operatorsApi, type Role } from "../lib/operators-api";
import { Field, FormActions, TextField } from "../ui/fields";
import { RoleField } from "./RoleField";

const EXPIRY_DAYS = [1, 3, 7, 30];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Who may use the invite (anyone with the link, or one address), as what, for how long. */
export function InviteForm({ onCreated }: { onCreated(invite: CreatedInvite): void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const [hours, setHours] = useState(72);
  const [errors, setErrors] = useState<{ email?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (address && !EMAIL.test(address)) {
      setErrors({ email: t("admin.invites.form.emailInvalid") });
      return document.getElementById("invite-email")?.focus();
    }
    setErrors({});
    setBusy(true);
    try {
      const created = await operatorsApi.invites.create({
        ...(address ? { email: address } : {}),
        role,
        expiresInHours: hours,
      });
      setEmail("");
      onCreated(created);
    } catch (error) {
      setErrors(formErrors(error, ["email"], (reason) => t("admin.invites.form.failed", { reason })));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="invite-form" onSubmit={submit} noValidate aria-label={t("admin.invites.form.label")}>
      <TextField
        id="invite-email"
        label={t("admin.invites.form.email")}
        error={errors.email}
        hint={t("admin.invites.form.emailHint")}
        type="email"
        value={email}
        autoComplete="off"
        placeholder={t("admin.invites.form.emailPlaceholder")}
        onChange={(value) => {
          setEmail(value);
          setErrors({});
        }}
      />
      <div className="form-row">
        <RoleField value={role} onChange={setRole} />
        <Field label={t("admin.invites.form.expiresAfter")}>
          {(id) => (
            <select id={id} value={hours} onChange={(e) => setHours(Number(e.target.value))}>
              {EXPIRY_DAYS.map((days) => (
                <option key={days} value={days * 24}>
                  {t("admin.invites.form.days", { count: days })}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <FormActions
        start
        label={t("admin.invites.form.submit")}
        busyLabel={t("admin.invites.form.creating")}
        busy={busy}
        error={errors.form}
      />
    </form>
  );
}
