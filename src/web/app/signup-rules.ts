import { t } from "../i18n/i18n";
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

/**
 * What the sign-in page says to someone new: `link` offers "Create an account" (where the form
 * would take them); `invite_only` and `closed` say how an account comes about instead, so nobody
 * follows a link to a page that turns them away; `none` says nothing (single sign-on only).
 */
export type SignupOffer = "link" | "invite_only" | "closed" | "none";

export function signupOffer(instance: InstanceInfo | null | undefined, invite: string | null): SignupOffer {
  if (!instance) return "link";
  if (!instance.passwordLogin) return "none";
  if (!instance.hasUsers || instance.signupMode === "open") return "link";
  if (instance.signupMode === "closed") return "closed";
  return invite ? "link" : "invite_only";
}

/**
 * Why an invite was refused, read from the server's refusal. The server names the reason only in
 * its English detail (src/server/operators/invites.ts INVITE_REFUSALS); it is never shown as is,
 * only recognised, so the reader gets the reason in their own language.
 */
function inviteReason(detail: string | undefined): "used" | "expired" | "unknown" | "otherEmail" | null {
  if (!detail) return null;
  if (/already been used/i.test(detail)) return "used";
  if (/expired/i.test(detail)) return "expired";
  if (/not valid/i.test(detail)) return "unknown";
  if (/another email/i.test(detail)) return "otherEmail";
  return null;
}

/** A sign-up refused by the server, in words. */
export function signupRefusal(code: string | null, detail?: string): string | null {
  if (code === "invite_required") {
    const reason = inviteReason(detail);
    if (reason === "used") return t("auth.refusal.inviteUsed");
    if (reason === "expired") return t("auth.refusal.inviteExpired");
    if (reason === "unknown") return t("auth.refusal.inviteUnknown");
    if (reason === "otherEmail") return t("auth.refusal.inviteOtherEmail");
    return t("auth.refusal.inviteRequired");
  }
  if (code === "signup_disabled") return t("auth.refusal.signupDisabled");
  return null;
}

/** The message for `/signin?error=<code>`, where single sign-on sends the browser when it fails. */
export function signinErrorMessage(code: string | null): string | null {
  if (!code) return null;
  if (code === "signup_disabled") return t("auth.sso.signupDisabled");
  if (code === "invite_required") return t("auth.sso.inviteRequired");
  if (code === "account_not_linked") return t("auth.sso.accountNotLinked");
  if (code === "account_disabled" || code.includes("banned")) return t("errors.auth.banned_user");
  return t("auth.sso.failed", { reason: code.replaceAll("_", " ").slice(0, 80) });
}
