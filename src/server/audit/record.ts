import { lt } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Db } from "../db/client.js";
import { auditEvents } from "../db/schema.js";
import type { UserActor } from "../policies/actor.js";

/** How long the audit log keeps what happened (DESIGN section 17). */
export const AUDIT_KEPT_DAYS = 90;
const PRUNE_EVERY_MS = 3_600_000;

/** Who did it, when not a signed-in actor (a sign-in attempt: the account it named, if any). */
export interface AuditWho {
  id: string | null;
  name: string;
}

export interface AuditEntry {
  /** `widget.action`, `integration.created`: what kind of thing happened. */
  action: string;
  /** What it happened to: `widget:<id>`, `integration:<id>`. */
  target: string;
  detail?: Record<string, unknown>;
}

/**
 * The audit log's one writer. Entries older than AUDIT_KEPT_DAYS go with the writes, at most once
 * an hour per instance, so no job has to exist for it.
 */
export class AuditLog {
  private prunedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
  ) {}

  /**
   * Records after the deed is done, outside its transaction: a failed write is logged, and never
   * turns a done deed into an error answer.
   */
  after(
    actor: UserActor | AuditWho | null,
    entry: AuditEntry,
    log: { warn(obj: object, msg: string): void },
  ): Promise<void> {
    return this.record(actor, entry).catch((error: unknown) =>
      log.warn({ err: error }, "could not write the audit log"),
    );
  }

  async record(actor: UserActor | AuditWho | null, entry: AuditEntry, db: Db = this.db): Promise<void> {
    const now = this.clock();
    const who = actor === null ? null : "user" in actor ? actor.user : actor;
    await db.insert(auditEvents).values({
      id: uuidv7(),
      at: new Date(now),
      actorId: who?.id ?? null,
      actorName: who?.name ?? "Tessera",
      action: entry.action,
      target: entry.target,
      detail: entry.detail ?? {},
    });
    if (now - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = now;
      // On the writer's connection: the embedded engine has one, held by an open transaction.
      await db.delete(auditEvents).where(lt(auditEvents.at, new Date(now - AUDIT_KEPT_DAYS * 86_400_000)));
    }
  }
}
