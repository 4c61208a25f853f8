import { createHash } from "node:crypto";
import type { IntegrationSession } from "./kit.js";
import type { UsableIntegration } from "./types.js";

/** Sessions kept at most (one per saved integration in use); the least recently used goes. */
const SESSIONS_MAX = 256;

interface Kept {
  session: Promise<IntegrationSession>;
  /** When the service forgets it (epoch ms); Infinity until it answers 401 or 403. */
  expiresAt: number;
  /** Set as the sign-in succeeds, before any caller sees the session. */
  resolved?: IntegrationSession;
}

/**
 * The sign-in sessions of kinds that sign in before they ask (qBittorrent, Pi-hole v6): one per
 * saved integration, shared by every widget and instance call that uses it, because those
 * services cap their sessions (Pi-hole: 16) and ban addresses that sign in too often
 * (qBittorrent). Keyed by address and secrets too, so a changed password signs in afresh.
 */
export class IntegrationSessions {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly clock: () => number) {}

  /**
   * The integration's session, signing in when there is none (concurrent callers share one
   * sign-in). An unsaved integration (a connection test) signs in every time.
   */
  get(
    integration: UsableIntegration,
    signIn: () => Promise<IntegrationSession>,
  ): Promise<IntegrationSession> {
    if (!integration.id) return signIn();
    const key = keyOf(integration);
    const known = this.kept.get(key);
    if (known && known.expiresAt > this.clock()) {
      this.kept.delete(key);
      this.kept.set(key, known);
      return known.session;
    }
    const started = this.clock();
    const kept: Kept = { session: signIn(), expiresAt: Number.POSITIVE_INFINITY };
    this.kept.set(key, kept);
    if (this.kept.size > SESSIONS_MAX) this.kept.delete(this.kept.keys().next().value!);
    kept.session.then(
      (session) => {
        kept.resolved = session;
        // A little early, so a call never goes out with a session that lapses on its way.
        if (session.expiresInMs !== undefined) kept.expiresAt = started + session.expiresInMs * 0.9;
      },
      // A refused sign-in is not kept: the next call tries again (the kind's widget backs off).
      () => this.drop(key, kept),
    );
    return kept.session;
  }

  /** Forgets the session `session` (the service refused it), unless another replaced it already. */
  forget(integration: UsableIntegration, session: IntegrationSession) {
    if (!integration.id) return;
    const key = keyOf(integration);
    const known = this.kept.get(key);
    if (known?.resolved === session) this.kept.delete(key);
  }

  private drop(key: string, kept: Kept) {
    if (this.kept.get(key) === kept) this.kept.delete(key);
  }
}

function keyOf(integration: UsableIntegration): string {
  return createHash("sha256")
    .update(JSON.stringify([integration.id, integration.url, Object.entries(integration.secrets).sort()]))
    .digest("base64");
}
