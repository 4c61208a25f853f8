import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { userChannel } from "../../contract/notifications.js";
import { ACCESS_CHANGED, type Access, dashboardChannel, MEMBERS_CHANGED } from "../../contract/sharing.js";
import type { Db } from "../db/client.js";
import type { EventBus } from "../realtime/bus.js";

/** Who may read each dashboard through ownership or membership, and as what. */
export type Readers = Map<string, Map<string, Access>>;

/**
 * The readers of those dashboards, read in the writing transaction before and after a change to
 * members or groups, so exactly the people whose access changed are told (`access.changed`).
 * Admins who are no member are not readers here: their access does not change with sharing.
 */
export async function readersOf(tx: Db, dashboardIds: readonly string[]): Promise<Readers> {
  const readers: Readers = new Map(dashboardIds.map((id) => [id, new Map()]));
  if (dashboardIds.length === 0) return readers;
  const ids = sql.join(
    dashboardIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const result = (await tx.execute(sql`
    WITH reach AS (
      SELECT m.dashboard_id, u.id AS user_id, m.role
      FROM dashboard_members m
      JOIN "user" u ON m.principal_type = 'everyone'
        OR (m.principal_type = 'user' AND m.principal_id = u.id)
        OR (m.principal_type = 'group' AND EXISTS (
              SELECT 1 FROM group_members gm WHERE gm.group_id::text = m.principal_id AND gm.user_id = u.id))
      WHERE m.dashboard_id IN (${ids})
    )
    SELECT d.id AS dashboard_id, d.user_id, 'owner' AS access FROM dashboards d WHERE d.id IN (${ids})
    UNION ALL
    SELECT r.dashboard_id, r.user_id, CASE WHEN bool_or(r.role = 'editor') THEN 'editor' ELSE 'viewer' END
    FROM reach r JOIN dashboards d ON d.id = r.dashboard_id AND d.user_id <> r.user_id
    GROUP BY r.dashboard_id, r.user_id`)) as unknown as {
    rows: { dashboard_id: string; user_id: string; access: Access }[];
  };
  for (const row of result.rows) readers.get(row.dashboard_id)?.set(row.user_id, row.access);
  return readers;
}

export interface AccessChange {
  userId: string;
  dashboardId: string;
  /** null: the user may no longer read it. */
  access: Access | null;
}

/** Each reader whose access differs between `before` and `after`. */
export function accessChanges(before: Readers, after: Readers): AccessChange[] {
  const changes: AccessChange[] = [];
  for (const [dashboardId, was] of before) {
    const now = after.get(dashboardId) ?? new Map<string, Access>();
    for (const [userId, access] of was)
      if (now.get(userId) !== access) changes.push({ userId, dashboardId, access: now.get(userId) ?? null });
    for (const [userId, access] of now) if (!was.has(userId)) changes.push({ userId, dashboardId, access });
  }
  return changes;
}

/**
 * Tells, on every instance, what a committed change to members or groups changed: open streams
 * watching those dashboards check their access again, and each person whose access changed gets
 * `access.changed`. A failed send is logged: the change itself stands.
 */
export async function announceAccess(
  bus: EventBus,
  log: FastifyBaseLogger,
  dashboardIds: readonly string[],
  changes: readonly AccessChange[],
) {
  const sends = [
    ...dashboardIds.map((id) =>
      bus.publish(dashboardChannel(id), { event: MEMBERS_CHANGED, data: { dashboardId: id } }),
    ),
    ...changes.map(({ userId, dashboardId, access }) =>
      bus.publish(userChannel(userId), { event: ACCESS_CHANGED, data: { dashboardId, access } }),
    ),
  ];
  for (const sent of await Promise.allSettled(sends))
    if (sent.status === "rejected") log.warn({ err: sent.reason }, "could not announce an access change");
}
