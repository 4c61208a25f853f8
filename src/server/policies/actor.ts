import type { SessionUser } from "../../contract/session.js";

/** Someone without a session: a visitor of a published dashboard, or a client not signed in. */
export interface Visitor {
  kind: "visitor";
}

/**
 * A signed-in user acting through a session. API keys (issue 14) become another `via` here,
 * carrying their scopes; roles join `user`. Policies read only this, never headers.
 */
export interface UserActor {
  kind: "user";
  user: SessionUser;
  via: "session";
  session: { id: string; expiresAt: number };
  /** What the session was resolved from, to check it again when the user's sessions are revoked. */
  credentials: { cookie?: string; authorization?: string };
}

export type Actor = Visitor | UserActor;

export const VISITOR: Visitor = Object.freeze({ kind: "visitor" });
