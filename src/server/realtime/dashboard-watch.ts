import { randomUUID } from "node:crypto";
import { inArray } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { DASHBOARD_RESTORED } from "../../contract/notifications.js";
import type { Dashboard } from "../../contract/resources.js";
import {
  ACCESS_CHANGED,
  type Access,
  type Author,
  DASHBOARD_UPDATED,
  type DashboardEvent,
  MEMBERS_CHANGED,
  PRESENCE,
  WIDGET_CREATED,
  WIDGET_DELETED,
  WIDGET_UPDATED,
} from "../../contract/sharing.js";
import type { Db } from "../db/client.js";
import { user } from "../db/schema.js";
import { notFound } from "../http/errors.js";
import type { UserActor } from "../policies/actor.js";
import { dashboardFor } from "../policies/records.js";
import { DASHBOARD_DELETED } from "./dashboard-events.js";
import type { DashboardFeeds, Delivery } from "./dashboard-feeds.js";
import type { PresenceBoard } from "./presence.js";

/** Events of one dashboard held while its access is checked again; more means something is stuck. */
const MAX_HELD = 1000;

/** A dashboard a stream watches, as its watcher may see it. */
export interface Watched {
  dashboardId: string;
  access: Access;
  /** Whose dashboard it is; null when it is the watcher's own (answers then carry no `owner`). */
  owner: Author | null;
}

/**
 * The dashboards of `?dashboard=`, each as the actor may read it; a dashboard they may not read
 * answers 404, as if it did not exist.
 */
export async function watchable(db: Db, actor: UserActor, ids: readonly string[]): Promise<Watched[]> {
  const found = [];
  // One after another: a reconnecting crowd must not take the whole pool, ten connections a tab.
  for (const id of new Set(ids.map((id) => id.toLowerCase()))) {
    const row = await dashboardFor(db, actor, "read", id);
    if (!row) throw notFound("Dashboard");
    found.push(row);
  }
  const me = actor.user.id;
  const owners = [...new Set(found.map((row) => row.userId).filter((id) => id !== me))];
  const names =
    owners.length === 0
      ? []
      : await db.select({ id: user.id, name: user.name }).from(user).where(inArray(user.id, owners));
  const byId = new Map(names.map((owner) => [owner.id, owner]));
  return found.map((row) => ({
    dashboardId: row.id,
    // Answers show an admin who is no member as a viewer (policies/records.ts).
    access: row.access ?? "viewer",
    owner: row.userId === me ? null : (byId.get(row.userId) ?? { id: row.userId, name: "" }),
  }));
}

/** Where a watch writes: its stream. */
export interface WatchSink {
  write(chunk: string): void;
  end(): void;
}

export interface WatchDeps {
  feeds: DashboardFeeds;
  presence: PresenceBoard;
  db: Db;
  log: FastifyBaseLogger;
  /** Who the stream acts for now; null once its session or key is gone. */
  actor(): Promise<UserActor | null>;
}

interface Board extends Watched {
  unwatch: () => void;
  /** Events held while the watcher's access is checked again; null while they flow through. */
  held: Delivery[] | null;
  checking: boolean;
  checkAgain: boolean;
  /** The last presence list sent, so a list announced twice is sent once. */
  lastPresence: string | null;
}

const accessChanged = (dashboardId: string, access: Access | null) =>
  `event: ${ACCESS_CHANGED}\ndata: ${JSON.stringify({ dashboardId, access })}\n\n`;

/**
 * The dashboards one stream watches: forwards their events, keeps the stream's presence on them,
 * and stops at once for a dashboard the watcher can no longer read. Whenever its members change
 * (on any instance), the watcher's access is checked again before any later event of that
 * dashboard goes out, so nothing of it reaches someone just removed.
 */
export class DashboardWatch {
  /** The stream's presence rows carry this id; the hub refreshes and removes them by it. */
  readonly streamId = randomUUID();
  private readonly boards = new Map<string, Board>();
  /** Dashboards the client was told it lost (`access.changed` null), so it is told once. */
  private readonly toldGone = new Set<string>();
  private ended = false;

  constructor(
    private readonly sink: WatchSink,
    private readonly userId: string,
    watched: readonly Watched[],
    private readonly deps: WatchDeps,
  ) {
    for (const w of watched)
      this.boards.set(w.dashboardId, {
        ...w,
        unwatch: () => {},
        held: null,
        checking: false,
        checkAgain: false,
        lastPresence: null,
      });
  }

  watches(dashboardId: string): boolean {
    return this.boards.has(dashboardId);
  }

  /** Subscribes to every dashboard, then joins their presence (announcing it to everyone, this stream too). */
  async start() {
    await Promise.all(
      [...this.boards.values()].map(async (board) => {
        const unwatch = await this.deps.feeds.watch(board.dashboardId, (delivery) =>
          this.receive(board, delivery),
        );
        if (this.ended || this.boards.get(board.dashboardId) !== board) unwatch();
        else board.unwatch = unwatch;
      }),
    );
    if (this.ended) return;
    const joined = [...this.boards.keys()];
    await this.deps.presence.join(this.streamId, this.userId, joined);
    // The stream ended, or lost a dashboard, while its rows were written: they go again.
    if (this.ended) await this.deps.presence.leave([this.streamId]);
    else
      for (const id of joined) if (!this.boards.has(id)) await this.deps.presence.leave([this.streamId], id);
  }

  /**
   * `access.changed` from the user's own channel: answers whether the stream forwards it. Losing
   * access to a watched dashboard is checked again (an admin, or another group, may still read it).
   */
  accessChanged(dashboardId: string, access: Access | null): boolean {
    const board = this.boards.get(dashboardId);
    if (access === null) {
      if (this.toldGone.has(dashboardId)) return false;
      this.toldGone.add(dashboardId);
      if (board) void this.recheck(board);
      return true;
    }
    this.toldGone.delete(dashboardId);
    if (board) board.access = access;
    return true;
  }

  end() {
    this.ended = true;
    for (const board of this.boards.values()) board.unwatch();
    this.boards.clear();
  }

  private receive(board: Board, delivery: Delivery) {
    if (this.boards.get(board.dashboardId) !== board) return;
    if (delivery.event === MEMBERS_CHANGED) return void this.recheck(board);
    if (delivery.event === DASHBOARD_DELETED) return this.lose(board);
    if (!board.held) return this.send(board, delivery);
    if (board.held.length >= MAX_HELD) return this.sink.end();
    board.held.push(delivery);
  }

  private send(board: Board, delivery: Delivery) {
    switch (delivery.event) {
      case PRESENCE: {
        const text = delivery.sse();
        if (text === board.lastPresence) return;
        board.lastPresence = text;
        return this.sink.write(text);
      }
      case DASHBOARD_UPDATED:
        return this.sink.write(this.asSeenBy(board, delivery.data as DashboardEvent<Dashboard>));
      case WIDGET_CREATED:
      case WIDGET_UPDATED:
      case WIDGET_DELETED:
      case DASHBOARD_RESTORED:
        return this.sink.write(delivery.sse());
    }
  }

  /** The dashboard as GET /api/dashboards?id= answers this watcher: their own access and owner. */
  private asSeenBy(board: Board, envelope: DashboardEvent<Dashboard>) {
    const { owner: _writersView, ...dashboard } = envelope.data;
    const data: Dashboard = board.owner
      ? { ...dashboard, access: board.access, owner: board.owner }
      : { ...dashboard, access: board.access };
    return `event: ${DASHBOARD_UPDATED}\ndata: ${JSON.stringify({ ...envelope, data })}\n\n`;
  }

  /** Checks the watcher's access again, holding the dashboard's events until it knows. */
  private async recheck(board: Board) {
    if (board.checking) {
      board.checkAgain = true;
      return;
    }
    board.checking = true;
    board.held ??= [];
    try {
      do {
        board.checkAgain = false;
        const actor = await this.deps.actor();
        if (!actor) return this.sink.end();
        const row = await dashboardFor(this.deps.db, actor, "read", board.dashboardId);
        if (this.boards.get(board.dashboardId) !== board) return;
        if (!row) return this.lose(board);
        board.access = row.access ?? "viewer";
      } while (board.checkAgain);
      const held = board.held ?? [];
      board.held = null;
      // Told it was gone, but another way still lets them read it (a group, an admin's role).
      if (this.toldGone.delete(board.dashboardId))
        this.sink.write(accessChanged(board.dashboardId, board.access));
      for (const delivery of held) this.send(board, delivery);
    } catch (error) {
      // Unsure whether they may still read it: the client reconnects, and opening checks again.
      this.deps.log.warn(
        { err: error },
        "could not re-check a watched dashboard's access; ending the stream",
      );
      this.sink.end();
    } finally {
      board.checking = false;
    }
  }

  private lose(board: Board) {
    this.boards.delete(board.dashboardId);
    board.unwatch();
    board.held = null;
    if (!this.toldGone.has(board.dashboardId)) {
      this.toldGone.add(board.dashboardId);
      this.sink.write(accessChanged(board.dashboardId, null));
    }
    this.deps.presence
      .leave([this.streamId], board.dashboardId)
      .catch((error: unknown) => this.deps.log.warn({ err: error }, "could not remove a stream's presence"));
  }
}
