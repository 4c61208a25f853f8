import { and, asc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { dashboardChannel, PRESENCE, type Presence } from "../../contract/sharing.js";
import type { Db } from "../db/client.js";
import { dashboardPresence, user } from "../db/schema.js";
import type { EventBus } from "./bus.js";

/** What a `presence` event carries, and what `POST /api/dashboards/presence` answers. */
export interface PresenceList {
  dashboardId: string;
  present: Presence[];
}

/**
 * Who watches which dashboard, shared by every instance through `dashboard_presence`: one row per
 * stream and dashboard, written when the stream starts and deleted when it ends. Each instance's
 * heartbeat keeps its own rows fresh; rows older than `staleMs` belong to an instance that died,
 * are left out of every list and deleted by the next instance that looks. Whoever changes a
 * dashboard's rows reads its list again and publishes it to the dashboard's watchers.
 */
export class PresenceBoard {
  /** Announcements under way, per dashboard; `again` asks for one more read after the current one. */
  private readonly announcing = new Map<string, { again: boolean; done: Promise<void> }>();

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
    private readonly log: FastifyBaseLogger,
    private readonly staleMs: number,
  ) {}

  async join(streamId: string, userId: string, dashboardIds: readonly string[]) {
    if (dashboardIds.length === 0) return;
    await this.db
      .insert(dashboardPresence)
      .values(dashboardIds.map((dashboardId) => ({ streamId, dashboardId, userId })))
      .onConflictDoNothing();
    for (const dashboardId of dashboardIds) void this.announce(dashboardId);
  }

  /** Removes the streams' rows (of one dashboard, or all of theirs) and announces who is left. */
  async leave(streamIds: readonly string[], dashboardId?: string) {
    if (streamIds.length === 0) return;
    const streams = inArray(dashboardPresence.streamId, [...streamIds]);
    const gone = await this.db
      .delete(dashboardPresence)
      .where(dashboardId ? and(streams, eq(dashboardPresence.dashboardId, dashboardId)) : streams)
      .returning({ dashboardId: dashboardPresence.dashboardId });
    await Promise.all([...new Set(gone.map((row) => row.dashboardId))].map((id) => this.announce(id)));
  }

  /** The heartbeat of this instance's streams: one statement, however many. */
  async refresh(streamIds: readonly string[]) {
    if (streamIds.length === 0) return;
    await this.db
      .update(dashboardPresence)
      .set({ seenAt: sql`now()` })
      .where(inArray(dashboardPresence.streamId, [...streamIds]));
  }

  /** Deletes the rows of streams no instance keeps fresh any more, and tells their dashboards. */
  async expire() {
    const gone = await this.db
      .delete(dashboardPresence)
      .where(lt(dashboardPresence.seenAt, this.freshSince()))
      .returning({ dashboardId: dashboardPresence.dashboardId });
    await Promise.all([...new Set(gone.map((row) => row.dashboardId))].map((id) => this.announce(id)));
  }

  /** Sets what the user edits on the dashboard, on all their streams on every instance. */
  async setEditing(userId: string, dashboardId: string, editing: string | null) {
    const changed = await this.db
      .update(dashboardPresence)
      .set({ editing })
      .where(
        and(
          eq(dashboardPresence.userId, userId),
          eq(dashboardPresence.dashboardId, dashboardId),
          sql`${dashboardPresence.editing} IS DISTINCT FROM ${editing}::uuid`,
        ),
      )
      .returning({ streamId: dashboardPresence.streamId });
    if (changed.length > 0) await this.announce(dashboardId);
  }

  /** Everyone watching the dashboard, once each, by name. */
  async list(dashboardId: string): Promise<PresenceList> {
    // Any of the user's streams editing a widget makes them editing it; max() picks one.
    const editing = sql<string | null>`max(${dashboardPresence.editing}::text)`;
    const present = await this.db
      .select({ userId: user.id, name: user.name, image: user.image, editing })
      .from(dashboardPresence)
      .innerJoin(user, eq(user.id, dashboardPresence.userId))
      .where(
        and(eq(dashboardPresence.dashboardId, dashboardId), gt(dashboardPresence.seenAt, this.freshSince())),
      )
      .groupBy(user.id, user.name, user.image)
      .orderBy(asc(user.name), asc(user.id));
    return { dashboardId, present };
  }

  /**
   * Reads the dashboard's list and publishes it to its watchers. Changes that come while a read is
   * under way fold into one more read after it, so a burst of joins costs two reads, not one each,
   * and the last list published is never older than the last change.
   */
  announce(dashboardId: string): Promise<void> {
    const running = this.announcing.get(dashboardId);
    if (running) {
      running.again = true;
      return running.done;
    }
    const state = { again: true, done: Promise.resolve() };
    this.announcing.set(dashboardId, state);
    state.done = this.publishWhileAsked(dashboardId, state);
    return state.done;
  }

  private async publishWhileAsked(dashboardId: string, state: { again: boolean }) {
    try {
      while (state.again) {
        state.again = false;
        const list = await this.list(dashboardId);
        // The id lets a bus that drops large payloads (NOTIFY) deliver it; listeners read the list again.
        await this.bus.publish(dashboardChannel(dashboardId), {
          event: PRESENCE,
          id: dashboardId,
          data: list,
        });
      }
    } catch (error) {
      this.log.warn({ err: error, dashboardId }, "could not announce a dashboard's presence");
    } finally {
      this.announcing.delete(dashboardId);
    }
  }

  /** The database's clock, not this instance's: instances' clocks may differ. */
  private freshSince() {
    return sql`now() - ${Math.ceil(this.staleMs / 1000)}::int * interval '1 second'`;
  }
}
