import type { Dashboard, Widget } from "../../contract/resources.js";
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

/** Runs inside the writing transaction: a listener that throws undoes the write. */
export type ChangeListener = (tx: Db, change: DashboardChange) => Promise<void>;
/** The same, once per write with all its changes (an import adds hundreds of widgets at once). */
export type ChangesListener = (tx: Db, changes: readonly DashboardChange[]) => Promise<void>;

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

  listen(listener: ChangeListener) {
    this.listeners.push(async (tx, changes) => {
      for (const change of changes) await listener(tx, change);
    });
  }

  listenAll(listener: ChangesListener) {
    this.listeners.push(listener);
  }

  /**
   * Runs `write`, every listener for each change it reports, and the owners' revision bumps
   * (db/revisions.ts) in one transaction.
   */
  async apply<T>(db: Db, write: (tx: Db) => Promise<Applied<T>>): Promise<T> {
    try {
      return await this.run(db, write);
    } catch (error) {
      if (!(error instanceof ServiceNeeded)) throw error;
      // Started outside any transaction (the embedded database's one session is free again),
      // then the write runs once more from the start: nothing of the first attempt was kept.
      await error.starting;
      return this.run(db, write);
    }
  }

  private async run<T>(db: Db, write: (tx: Db) => Promise<Applied<T>>): Promise<T> {
    return db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      const { result, changes } = await write(tx);
      if (changes.length > 0) {
        for (const listener of this.listeners) await listener(tx, changes);
        await bumpRevisions(tx, changes.map(ownerOf));
      }
      return result;
    });
  }
}

const ownerOf = (change: DashboardChange) =>
  "dashboard" in change ? change.dashboard.userId : change.widget.userId;
