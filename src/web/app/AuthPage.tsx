import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from "react-router";
import { t } from "../i18n/i18n";
import { ApiError, api, describeError, request } from "../lib/api";
import type { InstanceInfo } from "../lib/operators-api";
import { useInstance } from "../lib/operators-queries";
import { keys, useSession } from "../lib/queries";
import { Field, FormError, TextField } from "../ui/fields";
import { Skeleton } from "../ui/States";
import { Logo } from "./Logo";
import { SsoButton } from "./SsoButton";
import { type SignupOffer, signinErrorMessage, signupOffer, signupRefusal, signupView } from "./signup-rules";

type Mode = "signin" | "signup";
/** GET /api/invites/lookup: whether the link can still be used, and the address it admits. */
type InviteLookup = { status: "open" | "used" | "expired" | "unknown"; email: string | null };
type Errors = Partial<Record<"name" | "email" | "password" | "form", string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Set once someone signs in or up in this browser: only then is it "Welcome back". */
const RETURNING = "tessera:signed-in-before";

function isReturning(): boolean {
  try {
    return localStorage.getItem(RETURNING) === "1";
  } catch {
    return false;
  }
}

function rememberReturning() {
  try {
    localStorage.setItem(RETURNING, "1");
  } catch {
    // Without storage the greeting just stays "Welcome".
  }
}

function validate(mode: Mode, values: { name: string; email: string; password: string }): Errors {
  const errors: Errors = {};
  if (mode === "signup" && !values.name.trim()) errors.name = t("auth.validation.nameRequired");
  if (!values.email.trim()) errors.email = t("auth.validation.emailRequired");
  else if (!EMAIL.test(values.email.trim())) errors.email = t("errors.auth.invalid_email");
  if (!values.password) errors.password = t("auth.validation.passwordRequired");
  else if (mode === "signup" && values.password.length < 8)
    errors.password = t("errors.auth.password_too_short");
  else if (mode === "signup" && values.password.length > 128)
    errors.password = t("errors.auth.password_too_long");
  return errors;
}

/**
 * The address a refused invite admits, when the server named it ("This invite is for another email
 * address: x@y", src/server/operators/invites.ts): recognised, never shown as the English it is.
 */
export function invitedAddress(code: string | null, detail: string | undefined): string | null {
  if (code !== "invite_required" || !detail) return null;
  return /another email address: (\S+@\S+)$/.exec(detail)?.[1] ?? null;
}

/** The server's reasons, put next to the field they are about. */
function fromServer(error: unknown, mode: Mode): Errors {
  if (!(error instanceof ApiError)) return { form: describeError(error) };
  const code = error.code ?? "";
  const invited = invitedAddress(code, error.problem?.detail);
  if (invited) return { email: t("auth.refusal.inviteForEmail", { email: invited }) };
  const refusal = signupRefusal(code, error.problem?.detail);
  if (refusal) return { form: refusal };
  if (code === "auth_invalid_email_or_password") return { form: t("errors.auth.invalid_email_or_password") };
  if (code.includes("banned")) return { form: t("errors.auth.banned_user") };
  if (code.startsWith("auth_user_already_exists")) return { email: t("errors.auth.user_already_exists") };
  if (code === "auth_invalid_email") return { email: t("errors.auth.invalid_email") };
  if (code === "auth_password_too_short") return { password: t("errors.auth.password_too_short") };
  if (code === "auth_password_too_long") return { password: t("errors.auth.password_too_long") };
  if (error.status === 429) return { form: t("auth.tooManyAttempts") };
  // The server's field messages are English: each refused field gets ours.
  const fields = Object.keys(error.fieldErrors()).filter((field): field is "name" | "email" | "password" =>
    ["name", "email", "password"].includes(field),
  );
  if (fields.length)
    return Object.fromEntries(fields.map((field) => [field, t("auth.validation.fieldRejected")]));
  const reason = describeError(error);
  return {
    form: mode === "signin" ? t("auth.signinFailed", { reason }) : t("auth.signupFailed", { reason }),
  };
}

/** Why the invite in the link cannot be used, in the reader's language; null when it can. */
function inviteProblem(lookup: InviteLookup | undefined): string | null {
  if (lookup?.status === "used") return t("auth.refusal.inviteUsed");
  if (lookup?.status === "expired") return t("auth.refusal.inviteExpired");
  if (lookup?.status === "unknown") return t("auth.refusal.inviteUnknown");
  return null;
}

/** Why there is no sign-up form, with the way in that is left. */
function SignupBlocked({
  view,
  instance,
  reason,
}: {
  view: "invite_required" | "closed";
  instance: InstanceInfo;
  /** The invite link's own problem, said before anyone fills in the form. */
  reason?: string | null;
}) {
  const { t } = useTranslation();
  return (
    <>
      <h1>
        {view === "closed"
          ? t("auth.blocked.closedTitle")
          : reason
            ? t("auth.blocked.inviteUnusableTitle")
            : t("auth.blocked.inviteTitle")}
      </h1>
      <p className="muted">
        {view === "closed" ? t("auth.blocked.closedText") : (reason ?? t("auth.blocked.inviteText"))}
      </p>
      {instance.sso && <SsoButton sso={instance.sso} />}
    </>
  );
}

/**
 * The foot of the card: the way to the other page, or, on the sign-in page where sign-up would
 * turn a newcomer away, how they get an account instead.
 */
function SwitchLine({
  signup,
  offer,
  invite,
}: {
  signup: boolean;
  offer: SignupOffer;
  invite: string | null;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  if (!signup && offer === "invite_only")
    return <p className="auth-switch auth-offer">{t("auth.offer.inviteOnly")}</p>;
  if (!signup && offer === "closed")
    return <p className="auth-switch auth-offer">{t("auth.offer.closed")}</p>;
  if (!signup && offer === "none") return null;
  const target = signup ? "/signin" : invite ? `/signup?invite=${encodeURIComponent(invite)}` : "/signup";
  return (
    <p className="auth-switch">
      {signup ? t("auth.haveAccount") : t("auth.newHere")}{" "}
      <Link to={target} state={location.state}>
        {signup ? t("auth.signIn") : t("auth.createAnAccount")}
      </Link>
    </p>
  );
}

function Heading({
  signup,
  instance,
  invite,
}: {
  signup: boolean;
  instance?: InstanceInfo | null;
  invite: boolean;
}) {
  const { t } = useTranslation();
  const [returning] = useState(isReturning);
  if (signup && instance && !instance.hasUsers)
    return (
      <>
        <h1>{t("auth.heading.welcome")}</h1>
        <p className="muted">{t("auth.heading.firstText")}</p>
      </>
    );
  if (signup)
    return (
      <>
        <h1>{invite ? t("auth.heading.joinTitle") : t("auth.heading.signupTitle")}</h1>
        <p className="muted">
          {invite
            ? t("auth.heading.joinText")
            : instance?.signupMode === "open"
              ? t("auth.heading.openText")
              : t("auth.heading.signupText")}
        </p>
      </>
    );
  return (
    <>
      <h1>{returning ? t("auth.heading.welcomeBack") : t("auth.heading.welcome")}</h1>
      <p className="muted">{t("auth.heading.signinText")}</p>
    </>
  );
}

export function AuthPage({ mode }: { mode: Mode }) {
  const { t } = useTranslation();
  const session = useSession();
  const instanceQuery = useInstance();
  const [params] = useSearchParams();
  const invite = params.get("invite")?.trim() || null;
  const ssoError = mode === "signin" ? signinErrorMessage(params.get("error")) : null;
  const client = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [values, setValues] = useState({ name: "", email: "", password: "" });
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const lookup = useQuery({
    queryKey: ["invite-lookup", invite],
    enabled: mode === "signup" && invite !== null,
    queryFn: () =>
      request<InviteLookup>("GET", `/api/invites/lookup?token=${encodeURIComponent(invite ?? "")}`),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  // The only address the invite admits: filled in and kept, since any other is refused. Without
  // the lookup (an older server, a network error) the field is the person's to fill.
  const boundEmail = lookup.data?.status === "open" ? lookup.data.email : null;
  const entered = boundEmail === null ? values : { ...values, email: boundEmail };

  if (session.data)
    return <Navigate to={(location.state as { from?: string } | null)?.from ?? "/"} replace />;

  const set = (field: keyof typeof values) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined, form: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate(mode, entered);
    setErrors(found);
    if (Object.keys(found).length) {
      const first = (["name", "email", "password"] as const).find((f) => found[f]);
      if (first) document.getElementById(`auth-${first}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const email = entered.email.trim();
      if (mode === "signup")
        await api.auth.signUp({
          name: values.name.trim(),
          email,
          password: values.password,
          ...(invite ? { inviteToken: invite } : {}),
        });
      else await api.auth.signIn({ email, password: values.password });
      rememberReturning();
      // Whatever another user left in the cache must not leak into this session.
      client.clear();
      await client.fetchQuery({ queryKey: keys.session, queryFn: api.auth.session });
      navigate((location.state as { from?: string } | null)?.from ?? "/", { replace: true });
    } catch (error) {
      setErrors(fromServer(error, mode));
    } finally {
      setBusy(false);
    }
  };

  const signup = mode === "signup";
  // Without /api/instance (an older server, a network error) the page is the plain form.
  const instance = instanceQuery.isError ? null : instanceQuery.data;
  const formView = signup
    ? signupView(instance, invite)
    : instance?.passwordLogin === false
      ? "sso_only"
      : "form";
  // Where only an invite lets people in, a link that no longer works says so before the form.
  const unusable =
    signup && instance?.signupMode === "invite" && instance.hasUsers ? inviteProblem(lookup.data) : null;
  const view = formView === "form" && unusable ? "invite_required" : formView;
  const loading = instanceQuery.isPending || (signup && invite !== null && lookup.isPending);
  // Nobody to sign in as on a fresh instance; "Create an account" only where the form would take them.
  const offer = signupOffer(instance, invite);
  const switchLine = signup ? instance?.hasUsers !== false : true;
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="auth-brand">
          <Logo size={32} />
          <span>Tessera</span>
        </div>
        {loading ? (
          <div className="auth-loading" role="status" aria-label={t("common.loading")}>
            <Skeleton width="60%" height={26} />
            <Skeleton width="100%" height={40} />
            <Skeleton width="100%" height={40} />
          </div>
        ) : view === "invite_required" || view === "closed" ? (
          instance && <SignupBlocked view={view} instance={instance} reason={unusable} />
        ) : (
          <>
            <Heading signup={signup} instance={instance} invite={Boolean(invite)} />
            {!signup && instance?.hasUsers === false && (
              // A fresh instance has nobody to sign in as: its first visitor creates the admin.
              <p className="auth-notice first-run" role="status">
                {t("auth.firstRun")}
              </p>
            )}
            <FormError message={ssoError} className="auth-notice" />
            {instance?.sso && (
              <>
                <SsoButton sso={instance.sso} />
                {view === "form" && (
                  <p className="auth-divider">
                    <span>{t("auth.or")}</span>
                  </p>
                )}
              </>
            )}
            {view === "sso_only" && !instance?.sso && <FormError message={t("auth.ssoOnlyMissing")} />}
            {view === "form" && (
              <form onSubmit={submit} noValidate>
                {signup && (
                  <TextField
                    id="auth-name"
                    label={t("common.name")}
                    error={errors.name}
                    autoComplete="name"
                    value={values.name}
                    onChange={set("name")}
                  />
                )}
                <TextField
                  id="auth-email"
                  label={t("auth.email")}
                  error={errors.email}
                  hint={
                    signup && boundEmail !== null && !errors.email ? t("auth.inviteEmailHint") : undefined
                  }
                  type="email"
                  autoComplete="email"
                  value={entered.email}
                  readOnly={signup && boundEmail !== null}
                  onChange={set("email")}
                />
                <Field
                  id="auth-password"
                  label={t("auth.password")}
                  error={errors.password}
                  // One hint at a time: the error, when there is one, says the same and more.
                  hint={signup && !errors.password ? t("auth.passwordHint") : undefined}
                >
                  {(id, describedBy) => (
                    <div className="password-field">
                      <input
                        id={id}
                        type={showPassword ? "text" : "password"}
                        autoComplete={signup ? "new-password" : "current-password"}
                        value={values.password}
                        onChange={(e) => set("password")(e.target.value)}
                        aria-invalid={errors.password ? true : undefined}
                        aria-describedby={describedBy}
                      />
                      <button
                        type="button"
                        className="button ghost small password-toggle"
                        aria-pressed={showPassword}
                        aria-controls={id}
                        onClick={() => setShowPassword((v) => !v)}
                      >
                        <span aria-hidden="true">{showPassword ? t("auth.hide") : t("auth.show")}</span>
                        <span className="visually-hidden">
                          {showPassword ? t("auth.hidePassword") : t("auth.showPassword")}
                        </span>
                      </button>
                    </div>
                  )}
                </Field>
                <FormError message={errors.form} />
                <button type="submit" className="button primary block" disabled={busy}>
                  {busy
                    ? signup
                      ? t("auth.creatingAccount")
                      : t("auth.signingIn")
                    : signup
                      ? t("auth.createAccount")
                      : t("auth.signIn")}
                </button>
              </form>
            )}
          </>
        )}
        {switchLine && !loading && <SwitchLine signup={signup} offer={offer} invite={invite} />}
      </div>
    </main>
  );
}
