import { APIError } from "better-auth/api";
import { sql } from "drizzle-orm";
import type { Role } from "../../contract/operators.js";
import type { AccessConfig } from "../config.js";
import type { Db } from "../db/client.js";
import { inviteRefusal, spendInvite } from "./invites.js";

/** The sign-up endpoint; every other way an account appears is single sign-on's callback. */
const EMAIL_SIGNUP = "/sign-up/email";

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

const inviteTokenOf = (ctx: CreationContext | null | undefined): string | null => {
  const token = (ctx?.body as { inviteToken?: unknown } | undefined)?.inviteToken;
  return typeof token === "string" && token.length > 0 && token.length <= 200 ? token : null;
};

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
 *   decides who is in).
 * `check` answers early with the reason (read only); `claim` runs as the row is written and
 * spends what it grants (the first-admin claim, the invite), so races are decided there.
 */
export function signupGate(db: Db, access: AccessConfig, clock: () => number) {
  /** The refusal for an account about to be created, or null when it may be (read only). */
  async function check(
    method: string,
    email: string,
    ctx: CreationContext | null | undefined,
  ): Promise<Refusal | null> {
    if (!(await hasUsers(db))) return null;
    if (method === "email-password") {
      if (!access.passwordLogin)
        return refusal("signup_disabled", "Accounts are created through single sign-on");
      if (access.signupMode === "open") return null;
      if (access.signupMode === "closed")
        return refusal("signup_disabled", "Sign-up is closed on this instance");
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
    if (path === EMAIL_SIGNUP && access.passwordLogin) {
      if (access.signupMode === "closed")
        throw refuse("signup_disabled", "Sign-up is closed on this instance");
      // An invite is spent in open mode too, so an invite to be admin still makes an admin.
      const token = inviteTokenOf(ctx);
      const spent = token ? await spendInvite(db, token, email, clock()) : null;
      if (spent) return { role: spent.role, emailProven: spent.forEmail };
      if (access.signupMode === "open") return { role: "member", emailProven: false };
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
