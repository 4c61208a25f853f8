import { type FormEvent, useState } from "react";
import { ApiError, describeError } from "../lib/api";
import { type CreatedInvite, operatorsApi, type Role } from "../lib/operators-api";
import { Field } from "../ui/fields";

const EXPIRIES = [
  { hours: 24, label: "1 day" },
  { hours: 72, label: "3 days" },
  { hours: 168, label: "7 days" },
  { hours: 720, label: "30 days" },
];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Who may use the invite (anyone with the link, or one address), as what, for how long. */
export function InviteForm({ onCreated }: { onCreated(invite: CreatedInvite): void }) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const [hours, setHours] = useState(72);
  const [errors, setErrors] = useState<{ email?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (address && !EMAIL.test(address)) {
      setErrors({ email: "That doesn't look like an email address" });
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
      const fields = error instanceof ApiError ? error.fieldErrors() : {};
      setErrors(
        fields.email
          ? { email: fields.email }
          : { form: `Couldn't create the invite: ${describeError(error)}` },
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="invite-form" onSubmit={submit} noValidate aria-label="New invite">
      <Field
        id="invite-email"
        label="Email (optional)"
        error={errors.email}
        hint="Only this address can use the invite. Leave it empty for anyone with the link."
      >
        {(id, describedBy) => (
          <input
            id={id}
            type="email"
            value={email}
            autoComplete="off"
            placeholder="someone@example.com"
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={describedBy}
            onChange={(e) => {
              setEmail(e.target.value);
              setErrors({});
            }}
          />
        )}
      </Field>
      <div className="form-row">
        <Field label="Role">
          {(id) => (
            <select id={id} value={role} onChange={(e) => setRole(e.target.value as Role)}>
              <option value="member">Member</option>
              <option value="admin">Admin</option>
            </select>
          )}
        </Field>
        <Field label="Expires after">
          {(id) => (
            <select id={id} value={hours} onChange={(e) => setHours(Number(e.target.value))}>
              {EXPIRIES.map((option) => (
                <option key={option.hours} value={option.hours}>
                  {option.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {errors.form && (
        <p className="form-error" role="alert">
          {errors.form}
        </p>
      )}
      <div className="dialog-actions start">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? "Creating…" : "Create invite link"}
        </button>
      </div>
    </form>
  );
}
