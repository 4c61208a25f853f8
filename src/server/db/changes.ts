import type { Dashboard, Widget } from "../../contract/resources.js";
import type { Author } from "../../contract/sharing.js";
import type { Db } from "./client.js";
import { bumpRevisions } from "./revisions.js";

/**
 * What a write did to a dashboard or its widgets, as the records stand after it (a deleted
 * record as it was). A deleted dashboard carries the widgets that went with it.
 */
export type DashboardChange =
  | { kind: "dashboard.created"; dashboard: Dashboard }
  /** `restoredFrom`: the write put back that version's widgets (history starts a new version). */
  | { kind: "dashboard.updated"; dashboard: Dashboard; restoredFrom?: string }
  | { kind: "dashboard.deleted"; dashboard: Dashboard; widgets: Widget[] }
  | { kind: "widget.created" | "widget.deleted"; widget: Widget }
  /** `configChanged`: the write set the config (not only geometry). */
  | { kind: "widget.updated"; widget: Widget; configChanged?: boolean };

/** A write's result and the changes it made (none when it found nothing to change). */
export interface Applied<T> {
  result: T;
  changes: DashboardChange[];
}

/**
 * Who made a write and from which tab (the `X-Client-Id` header), so versions name the person and
 * live events let a tab skip its own echo (DESIGN section 14). Null for the server's own writes.
 */
export interface WriteOrigin {
  by: Author | null;
  clientId: string | null;
}

export const SERVER_WRITE: WriteOrigin = Object.freeze({ by: null, clientId: null });

/** Runs inside the writing transaction: a listener that throws undoes the write. */
export type ChangeListener = (tx: Db, change: DashboardChange) => Promise<void>;
/** The same, once per write with all its changes (an import adds hundreds of widgets at once). */
export type ChangesListener = (
  tx: Db,
  changes: readonly DashboardChange[],
  origin: WriteOrigin,
) => Promise<void>;
/** Runs after the write committed (live events): must not throw, and cannot undo anything. */
export type CommittedListener = (changes: readonly DashboardChange[], origin: WriteOrigin) => void;

/**
 * Thrown by a listener that needs a service which is not running yet (the job queue, started on
 * demand): the write rolls back, the service starts outside the transaction, the write runs again.
 * A service that cannot start fails the write with the reason `starting` rejects with.
 */
export class ServiceNeeded extends Error {
  constructor(readonly starting: Promise<unknown>) {
    super("a service this write needs is starting");
  }
}

/**
 * The one seam between writes to dashboards and widgets and the features that must act in the
 * same transaction (version history, scheduled alerts). Resources describe what they changed;
 * features register listeners in app.ts; neither imports the other.
 */
export class DashboardChanges {
  private readonly listeners: ChangesListener[] = [];
  private readonly committed: CommittedListener[] = [];

  listen(listener: ChangeListener) {
    this.listeners.push(async (tx, changes) => {
      for (const change of changes) await listener(tx, change);
    });
  }

  listenAll(listener: ChangesListener) {
    this.listeners.push(listener);
  }

  /** Called once the write's transaction has committed; returns a function that stops it. */
  onCommitted(listener: CommittedListener): () => void {
    this.committed.push(listener);
    return () => {
      const at = this.committed.indexOf(listener);
      if (at >= 0) this.committed.splice(at, 1);
    };
  }

  /**
   * Runs `write`, every listener for each change it reports, and the owners' revision bumps
   * (db/revisions.ts) in one transaction.
   */
  async apply<T>(
    db: Db,
    write: (tx: Db) => Promise<Applied<T>>,
    origin: WriteOrigin = SERVER_WRITE,
  ): Promise<T> {
    let applied: Applied<T>;
    try {
      applied = await this.run(db, write, origin);
    } catch (error) {
      if (!(error instanceof ServiceNeeded)) throw error;
      // Started outside any transaction (the embedded database's one session is free again),
      // then the write runs once more from the start: nothing of the first attempt was kept.
      await error.starting;
      applied = await this.run(db, write, origin);
    }
    if (applied.changes.length > 0)
      for (const listener of this.committed) {
        try {
          listener(applied.changes, origin);
        } catch {}
      }
    return applied.result;
  }

  private async run<T>(db: Db, write: (tx: Db) => Promise<Applied<T>>, origin: WriteOrigin) {
    return db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      const applied = await write(tx);
      if (applied.changes.length > 0) {
        for (const listener of this.listeners) await listener(tx, applied.changes, origin);
        await bumpRevisions(tx, applied.changes.map(ownerOf));
      }
      return applied;
    });
  }
}

const ownerOf = (change: DashboardChange) =>
  "dashboard" in change ? change.dashboard.userId : change.widget.userId;
