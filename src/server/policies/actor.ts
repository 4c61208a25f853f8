import type { ApiKeyScope, Me, Role } from "../../contract/operators.js";
import type { SessionUser } from "../../contract/session.js";

/** Someone without a session: a visitor of a published dashboard, or a client not signed in. */
export interface Visitor {
  kind: "visitor";
}

interface SignedIn {
  kind: "user";
  user: SessionUser;
  role: Role;
  /** What the actor was resolved from, to check it again when the user's access is revoked. */
  credentials: { cookie?: string; authorization?: string };
}

/** A signed-in user acting through a session (a browser, or a script with the session token). */
export interface SessionActor extends SignedIn {
  via: "session";
  session: { id: string; expiresAt: number };
}

/** A script acting for a user through an API key, within the key's scopes (DESIGN section 9). */
export interface KeyActor extends SignedIn {
  via: "key";
  key: { id: string; scopes: readonly ApiKeyScope[]; expiresAt: number | null };
}

/** Policies read only this, never headers. */
export type UserActor = SessionActor | KeyActor;

export type Actor = Visitor | UserActor;

export const VISITOR: Visitor = Object.freeze({ kind: "visitor" });

/** The signed-in user as `/api/me` and the bootstrap answer name them. */
export function meOf(actor: UserActor): Me {
  const { id, name, email, image } = actor.user;
  return { id, name, email, role: actor.role, image: image ?? null };
}
