import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from "react-router";
import { ApiError, api, describeError } from "../lib/api";
import type { InstanceInfo } from "../lib/operators-api";
import { useInstance } from "../lib/operators-queries";
import { keys, useSession } from "../lib/queries";
import { Field } from "../ui/fields";
import { Skeleton } from "../ui/States";
import { Logo } from "./Logo";
import { SsoButton } from "./SsoButton";
import { offersSignup, signinErrorMessage, signupRefusal, signupView } from "./signup-rules";

type Mode = "signin" | "signup";
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
  if (mode === "signup" && !values.name.trim()) errors.name = "Tell us what to call you";
  if (!values.email.trim()) errors.email = "Enter your email address";
  else if (!EMAIL.test(values.email.trim())) errors.email = "That doesn't look like an email address";
  if (!values.password) errors.password = "Enter your password";
  else if (mode === "signup" && values.password.length < 8) errors.password = "Use at least 8 characters";
  else if (mode === "signup" && values.password.length > 128) errors.password = "Use at most 128 characters";
  return errors;
}

/** The server's reasons, put next to the field they are about. */
function fromServer(error: unknown, mode: Mode): Errors {
  if (!(error instanceof ApiError)) return { form: describeError(error) };
  const code = error.code ?? "";
  const refusal = signupRefusal(code, error.problem?.detail);
  if (refusal) return { form: refusal };
  if (code === "auth_invalid_email_or_password") return { form: "Wrong email or password." };
  if (code.includes("banned"))
    return { form: "Your account is disabled. Ask an administrator to turn it back on." };
  if (code.startsWith("auth_user_already_exists"))
    return { email: "An account with this email already exists. Sign in instead?" };
  if (code === "auth_invalid_email") return { email: "That doesn't look like an email address" };
  if (code === "auth_password_too_short") return { password: "Use at least 8 characters" };
  if (code === "auth_password_too_long") return { password: "Use at most 128 characters" };
  if (error.status === 429) return { form: "Too many attempts. Wait a few minutes and try again." };
  const fields = error.fieldErrors();
  if (Object.keys(fields).length) return fields as Errors;
  return {
    form:
      mode === "signin"
        ? `Couldn't sign in: ${describeError(error)}`
        : `Couldn't create your account: ${describeError(error)}`,
  };
}

/** Why there is no sign-up form, with the way in that is left. */
function SignupBlocked({ view, instance }: { view: "invite_required" | "closed"; instance: InstanceInfo }) {
  return (
    <>
      <h1>{view === "closed" ? "Sign-up is closed" : "You need an invite"}</h1>
      <p className="muted">
        {view === "closed"
          ? "New accounts on this Tessera are created by its administrator. Ask them for an account."
          : "This Tessera is invite-only. Ask its administrator for an invite link, then open it here."}
      </p>
      {instance.sso && <SsoButton sso={instance.sso} />}
    </>
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
  const [returning] = useState(isReturning);
  if (signup && instance && !instance.hasUsers)
    return (
      <>
        <h1>Welcome</h1>
        <p className="muted">Create the first account. You will be the admin of this Tessera.</p>
      </>
    );
  if (signup)
    return (
      <>
        <h1>{invite ? "Join Tessera" : "Create your account"}</h1>
        <p className="muted">
          {invite
            ? "You've been invited. Create your account to accept."
            : "Your dashboards, on your own server."}
        </p>
      </>
    );
  return (
    <>
      <h1>{returning ? "Welcome back" : "Welcome"}</h1>
      <p className="muted">Sign in to your dashboards.</p>
    </>
  );
}

export function AuthPage({ mode }: { mode: Mode }) {
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

  if (session.data)
    return <Navigate to={(location.state as { from?: string } | null)?.from ?? "/"} replace />;

  const set = (field: keyof typeof values) => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    setErrors((e) => ({ ...e, [field]: undefined, form: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate(mode, values);
    setErrors(found);
    if (Object.keys(found).length) {
      const first = (["name", "email", "password"] as const).find((f) => found[f]);
      if (first) document.getElementById(`auth-${first}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const email = values.email.trim();
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
  const view = signup
    ? signupView(instance, invite)
    : instance?.passwordLogin === false
      ? "sso_only"
      : "form";
  // Nobody to sign in as on a fresh instance; otherwise "Create an account" only where it can work.
  const switchLink = signup ? instance?.hasUsers !== false : offersSignup(instance);
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="auth-brand">
          <Logo size={32} />
          <span>Tessera</span>
        </div>
        {instanceQuery.isPending ? (
          <div className="auth-loading" role="status" aria-label="Loading">
            <Skeleton width="60%" height={26} />
            <Skeleton width="100%" height={40} />
            <Skeleton width="100%" height={40} />
          </div>
        ) : view === "invite_required" || view === "closed" ? (
          instance && <SignupBlocked view={view} instance={instance} />
        ) : (
          <>
            <Heading signup={signup} instance={instance} invite={Boolean(invite)} />
            {!signup && instance?.hasUsers === false && (
              // A fresh instance has nobody to sign in as: its first visitor creates the admin.
              <p className="auth-notice first-run" role="status">
                Nobody has an account here yet. Create the first one: you will be the admin.
              </p>
            )}
            {ssoError && (
              <p className="form-error auth-notice" role="alert">
                {ssoError}
              </p>
            )}
            {instance?.sso && (
              <>
                <SsoButton sso={instance.sso} />
                {view === "form" && (
                  <p className="auth-divider">
                    <span>or</span>
                  </p>
                )}
              </>
            )}
            {view === "sso_only" && !instance?.sso && (
              <p className="form-error" role="alert">
                Password sign-in is turned off on this server and single sign-on is not set up. Ask its
                administrator.
              </p>
            )}
            {view === "form" && (
              <form onSubmit={submit} noValidate>
                {signup && (
                  <Field id="auth-name" label="Name" error={errors.name}>
                    {(id, describedBy) => (
                      <input
                        id={id}
                        autoComplete="name"
                        value={values.name}
                        onChange={set("name")}
                        aria-invalid={errors.name ? true : undefined}
                        aria-describedby={describedBy}
                      />
                    )}
                  </Field>
                )}
                <Field id="auth-email" label="Email" error={errors.email}>
                  {(id, describedBy) => (
                    <input
                      id={id}
                      type="email"
                      autoComplete="email"
                      value={values.email}
                      onChange={set("email")}
                      aria-invalid={errors.email ? true : undefined}
                      aria-describedby={describedBy}
                    />
                  )}
                </Field>
                <Field
                  id="auth-password"
                  label="Password"
                  error={errors.password}
                  // One hint at a time: the error, when there is one, says the same and more.
                  hint={signup && !errors.password ? "At least 8 characters." : undefined}
                >
                  {(id, describedBy) => (
                    <div className="password-field">
                      <input
                        id={id}
                        type={showPassword ? "text" : "password"}
                        autoComplete={signup ? "new-password" : "current-password"}
                        value={values.password}
                        onChange={set("password")}
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
                        {showPassword ? "Hide" : "Show"}
                        <span className="visually-hidden"> password</span>
                      </button>
                    </div>
                  )}
                </Field>
                {errors.form && (
                  <p className="form-error" role="alert">
                    {errors.form}
                  </p>
                )}
                <button type="submit" className="button primary block" disabled={busy}>
                  {busy
                    ? signup
                      ? "Creating account…"
                      : "Signing in…"
                    : signup
                      ? "Create account"
                      : "Sign in"}
                </button>
              </form>
            )}
          </>
        )}
        {switchLink && !instanceQuery.isPending && (
          <p className="auth-switch">
            {signup ? "Already have an account? " : "New here? "}
            <Link to={signup ? "/signin" : "/signup"} state={location.state}>
              {signup ? "Sign in" : "Create an account"}
            </Link>
          </p>
        )}
      </div>
    </main>
  );
}
