import type { InstanceInfo } from "../lib/operators-api";

/**
 * What the sign-up page shows: the form, or why there is none. A fresh instance always takes
 * its first account (who becomes the admin); an invite opens an invite-only server, not a closed one.
 */
export type SignupView = "form" | "invite_required" | "closed" | "sso_only";

export function signupView(instance: InstanceInfo | null | undefined, invite: string | null): SignupView {
  // An older server without /api/instance: the form, and the server says no if it must.
  if (!instance) return "form";
  if (!instance.passwordLogin) return "sso_only";
  if (!instance.hasUsers || instance.signupMode === "open") return "form";
  // Closed is closed: an invite does not open it (single sign-on may still create accounts).
  if (instance.signupMode === "closed") return "closed";
  return invite ? "form" : "invite_required";
}

/** Whether the sign-in page offers "Create an account". */
export function offersSignup(instance: InstanceInfo | null | undefined): boolean {
  if (!instance) return true;
  if (!instance.passwordLogin) return false;
  return !instance.hasUsers || instance.signupMode !== "closed";
}

/** A sign-up refused by the server, in words. */
export function signupRefusal(code: string | null, detail?: string): string | null {
  if (code === "invite_required")
    return detail
      ? detail.trim().replace(/([^.!?])$/, "$1.")
      : "This server needs an invite to join. Ask an administrator for an invite link.";
  if (code === "signup_disabled")
    return "Sign-up is closed on this server. Ask an administrator to create an account for you.";
  return null;
}

/** The message for `/signin?error=<code>`, where single sign-on sends the browser when it fails. */
export function signinErrorMessage(code: string | null): string | null {
  if (!code) return null;
  if (code === "signup_disabled")
    return "There is no account for you on this server, and sign-up is closed. Ask an administrator to create one.";
  if (code === "invite_required")
    return "There is no account for you on this server yet. Ask an administrator for an invite link.";
  if (code === "account_not_linked")
    return "An account with your email already exists here, and your identity provider hasn't confirmed that the email is yours, so the two can't be linked. Sign in with your password, or ask an administrator.";
  if (code === "account_disabled" || code.includes("banned"))
    return "Your account is disabled. Ask an administrator to turn it back on.";
  return `Single sign-on didn't work (${code.replaceAll("_", " ").slice(0, 80)}). Try again, or ask an administrator.`;
}
