import { API_KEY_PREFIX } from "../../contract/operators.js";
import type { ApiKeys } from "../apikeys/keys.js";
import type { UserActor } from "../policies/actor.js";
import type { SessionResolver } from "./sessions.js";

export type Credentials = { cookie?: string; authorization?: string };

/**
 * Turns what a request presents into who is acting: `Bearer tsk_…` is an API key (checked
 * before sessions, which would read any bearer value as a session token), anything else a
 * session. Realtime streams call it again when a user's access is revoked.
 */
export class ActorResolver {
  constructor(
    private readonly sessions: SessionResolver,
    private readonly keys: ApiKeys,
  ) {}

  async resolve(credentials: Credentials): Promise<UserActor | null> {
    const bearer = credentials.authorization?.startsWith("Bearer ")
      ? credentials.authorization.slice(7).trim()
      : null;
    if (bearer?.startsWith(API_KEY_PREFIX)) {
      const found = await this.keys.verify(bearer);
      return found ? { kind: "user", via: "key", ...found, credentials } : null;
    }
    const resolved = await this.sessions.resolve(credentials);
    if (!resolved) return null;
    return {
      kind: "user",
      via: "session",
      user: resolved.user,
      role: resolved.role,
      session: { id: resolved.sessionId, expiresAt: resolved.expiresAt },
      credentials,
    };
  }
}
