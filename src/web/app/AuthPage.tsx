import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, Navigate, useLocation, useNavigate } from "react-router";
import { ApiError, api, describeError } from "../lib/api";
import { keys, useSession } from "../lib/queries";
import { Field } from "../ui/fields";
import { Logo } from "./Logo";

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
  if (code === "auth_invalid_email_or_password") return { form: "Wrong email or password." };
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

export function AuthPage({ mode }: { mode: Mode }) {
  const session = useSession();
  const client = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [values, setValues] = useState({ name: "", email: "", password: "" });
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const [returning] = useState(isReturning);

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
        await api.auth.signUp({ name: values.name.trim(), email, password: values.password });
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
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="auth-brand">
          <Logo size={32} />
          <span>Tessera</span>
        </div>
        <h1>{signup ? "Create your account" : returning ? "Welcome back" : "Welcome"}</h1>
        <p className="muted">
          {signup ? "Your dashboards, on your own server." : "Sign in to your dashboards."}
        </p>
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
            {busy ? (signup ? "Creating account…" : "Signing in…") : signup ? "Create account" : "Sign in"}
          </button>
        </form>
        <p className="auth-switch">
          {signup ? "Already have an account? " : "New here? "}
          <Link to={signup ? "/signin" : "/signup"} state={location.state}>
            {signup ? "Sign in" : "Create an account"}
          </Link>
        </p>
      </div>
    </main>
  );
}
