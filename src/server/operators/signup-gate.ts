import { APIError } from "better-auth/api";
import { sql } from "drizzle-orm";
import type { Role } from "../../contract/operators.js";
import type { AccessConfig, SignupMode } from "../config.js";
import type { Db } from "../db/client.js";
import { inviteRefusal, spendInvite } from "./invites.js";

/** The sign-up endpoint. */
const EMAIL_SIGNUP = "/sign-up/email";
/**
 * The admin plugin's account creation: closed to HTTP (auth.ts), so only the app's own
 * `POST /api/admin/users` reaches it, after checking the caller is an admin.
 */
const ADMIN_CREATE = "/admin/create-user";
/** How better-auth names that way in to validateUserInfo. */
const ADMIN_METHOD = "admin";

interface CreationContext {
  path?: string;
  body?: unknown;
}

type RefusalCode = "signup_disabled" | "invite_required";
/** What better-auth's validateUserInfo returns to refuse: it answers 403 with this code. */
export interface Refusal {
  error: RefusalCode;
  errorDescription: string;
}
/** What creating an account was granted (operators/signup-gate.ts `claim`). */
export interface Claim {
  role: Role;
  /** Proven by the way in, not by the person's word: single sign-on may link to it by email. */
  emailProven: boolean;
}
const refusal = (error: RefusalCode, errorDescription: string): Refusal => ({ error, errorDescription });
const refuse = (code: RefusalCode, message: string) => new APIError("FORBIDDEN", { code, message });
/** A refusal as the 403 better-auth answers with. */
export const refusalError = (why: Refusal) => refuse(why.error, why.errorDescription);
const NEEDS_INVITE = "Sign-up needs an invite; ask an admin of this instance";
const CLOSED = "Sign-up is closed on this instance; an admin creates accounts";

const inviteTokenOf = (ctx: CreationContext | null | undefined): string | null => {
  const token = (ctx?.body as { inviteToken?: unknown } | undefined)?.inviteToken;
  return typeof token === "string" && token.length > 0 && token.length <= 200 ? token : null;
};

/** The role an admin gave the account they create (`POST /api/admin/users`). */
const requestedRole = (ctx: CreationContext | null | undefined): Role =>
  (ctx?.body as { role?: unknown } | undefined)?.role === "admin" ? "admin" : "member";

async function hasUsers(db: Db): Promise<boolean> {
  const result = (await db.execute(sql`SELECT EXISTS (SELECT 1 FROM "user") AS found`)) as unknown as {
    rows: { found: boolean }[];
  };
  return result.rows[0]?.found === true;
}

/**
 * Claims "first admin" for the account being created: one INSERT that only one of two racing
 * sign-ups can win. A claim whose account never appeared (its creation failed after the claim)
 * is taken over after a minute, so an instance cannot be left without an admin.
 */
async function claimFirstAdmin(db: Db): Promise<boolean> {
  const result = (await db.execute(sql`
    INSERT INTO instance_claims (name) VALUES ('first_admin')
    ON CONFLICT (name) DO UPDATE SET claimed_at = now()
      WHERE instance_claims.claimed_at < now() - interval '1 minute'
        AND NOT EXISTS (SELECT 1 FROM "user" WHERE role = 'admin')
    RETURNING name`)) as unknown as { rows: unknown[] };
  return result.rows.length > 0;
}

/**
 * Who may create an account (DESIGN section 8), on every path that creates one:
 * - the first account of an empty instance, always (it becomes the admin);
 * - email sign-up: `open` anyone, `invite` with a valid invite for that email, `closed` nobody,
 *   and nobody when password sign-in is off;
 * - single sign-on: when OIDC_AUTO_SIGNUP is on, whatever the mode (the identity provider
 *   decides who is in);
 * - an admin creating the account (`POST /api/admin/users`), whatever the mode.
 * `check` answers early with the reason (read only); `claim` runs as the row is written and
 * spends what it grants (the first-admin claim, the invite), so races are decided there.
 * `signupMode` is the mode in force as stored now (the admin page may change it at any time).
 */
export function signupGate(
  db: Db,
  access: AccessConfig,
  clock: () => number,
  signupMode: () => Promise<SignupMode>,
) {
  /** The refusal for an account about to be created, or null when it may be (read only). */
  async function check(
    method: string,
    email: string,
    ctx: CreationContext | null | undefined,
  ): Promise<Refusal | null> {
    if (!(await hasUsers(db))) return null;
    if (method === ADMIN_METHOD && ctx?.path === ADMIN_CREATE) return null;
    if (method === "email-password") {
      if (!access.passwordLogin)
        return refusal("signup_disabled", "Accounts are created through single sign-on");
      const mode = await signupMode();
      if (mode === "open") return null;
      if (mode === "closed") return refusal("signup_disabled", CLOSED);
      const token = inviteTokenOf(ctx);
      if (!token) return refusal("invite_required", NEEDS_INVITE);
      const why = await inviteRefusal(db, token, email, clock());
      return why ? refusal("invite_required", why) : null;
    }
    if (method === "oauth" && access.oidc?.autoSignUp) return null;
    return refusal("signup_disabled", "New accounts cannot be created this way");
  }

  /**
   * The role of the account being written, and whether what admitted it proves its email (an
   * invite bound to that email); throws when what `check` saw is gone (a race lost).
   */
  async function claim(email: string, ctx: CreationContext | null | undefined): Promise<Claim> {
    if (await claimFirstAdmin(db)) return { role: "admin", emailProven: false };
    const path = ctx?.path;
    // The admin vouches for the address, as with an invite bound to it.
    if (path === ADMIN_CREATE) return { role: requestedRole(ctx), emailProven: true };
    if (path === EMAIL_SIGNUP && access.passwordLogin) {
      const mode = await signupMode();
      if (mode === "closed") throw refuse("signup_disabled", CLOSED);
      // An invite is spent in open mode too, so an invite to be admin still makes an admin.
      const token = inviteTokenOf(ctx);
      const spent = token ? await spendInvite(db, token, email, clock()) : null;
      if (spent) return { role: spent.role, emailProven: spent.forEmail };
      if (mode === "open") return { role: "member", emailProven: false };
      throw refuse("invite_required", NEEDS_INVITE);
    }
    // Provider callbacks create users only for single sign-on: the data providers only link.
    // Whether the email is proven is the identity provider's word (better-auth copies it).
    if (path?.startsWith("/callback/") && access.oidc?.autoSignUp)
      return { role: "member", emailProven: false };
    throw refuse("signup_disabled", "New accounts cannot be created this way");
  }

  return { check, claim, inviteTokenOf };
}

export type SignupGate = ReturnType<typeof signupGate>;
