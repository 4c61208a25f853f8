import { asc, eq, inArray, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Group } from "../../contract/sharing.js";
import type { Db } from "../db/client.js";
import { dashboardMembers, groupMembers, groups, user } from "../db/schema.js";
import { badRequest } from "../http/errors.js";

/** Every group with its members' ids, by name. */
export async function listGroups(db: Db, onlyOf?: string): Promise<Group[]> {
  const rows = await db
    .select({
      id: groups.id,
      name: groups.name,
      members: sql<
        string[]
      >`coalesce((SELECT array_agg(gm.user_id ORDER BY gm.user_id) FROM group_members gm WHERE gm.group_id = ${groups.id}), '{}')`,
    })
    .from(groups)
    .where(
      onlyOf === undefined
        ? undefined
        : sql`${groups.id} IN (SELECT group_id FROM group_members WHERE user_id = ${onlyOf})`,
    )
    .orderBy(asc(groups.name), asc(groups.id));
  return rows;
}

export async function readGroup(db: Db, id: string): Promise<Group | null> {
  return (await listGroups(db)).find((g) => g.id === id) ?? null;
}

/** Refuses ids that name no user, each with its path, before anything is written. */
async function assertUsersExist(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return;
  const found = new Set(
    (
      await db
        .select({ id: user.id })
        .from(user)
        .where(inArray(user.id, [...ids]))
    ).map((r) => r.id),
  );
  const errors = ids.flatMap((id, i) =>
    found.has(id) ? [] : [{ path: `/members/${i}`, message: `no user has the id ${JSON.stringify(id)}` }],
  );
  if (errors.length > 0) throw badRequest("Some members are not users of this instance", errors);
}

async function setMembers(db: Db, groupId: string, members: readonly string[]) {
  await assertUsersExist(db, members);
  await db.delete(groupMembers).where(eq(groupMembers.groupId, groupId));
  if (members.length > 0)
    await db.insert(groupMembers).values(members.map((userId) => ({ groupId, userId })));
}

export async function createGroup(db: Db, name: string, members: readonly string[]): Promise<Group> {
  const id = uuidv7();
  await db.insert(groups).values({ id, name });
  await setMembers(db, id, members);
  return (await readGroup(db, id))!;
}

/** Null when there is no such group. */
export async function updateGroup(
  db: Db,
  id: string,
  patch: { name?: string; members?: readonly string[] },
): Promise<Group | null> {
  const [row] = await db
    .update(groups)
    .set({ ...(patch.name === undefined ? {} : { name: patch.name }), updatedAt: new Date() })
    .where(eq(groups.id, id))
    .returning({ id: groups.id });
  if (!row) return null;
  if (patch.members) await setMembers(db, id, patch.members);
  return readGroup(db, id);
}

/** Deletes the group and the dashboard memberships that named it. Null when there is none. */
export async function deleteGroup(db: Db, id: string): Promise<Group | null> {
  const group = await readGroup(db, id);
  if (!group) return null;
  await db
    .delete(dashboardMembers)
    .where(sql`${dashboardMembers.principalType} = 'group' AND ${dashboardMembers.principalId} = ${id}`);
  await db.delete(groups).where(eq(groups.id, id));
  return group;
}

/** The dashboards shared with the group: whose readers a change to it can change. */
export async function dashboardsOfGroup(db: Db, id: string): Promise<string[]> {
  const rows = await db
    .select({ id: dashboardMembers.dashboardId })
    .from(dashboardMembers)
    .where(sql`${dashboardMembers.principalType} = 'group' AND ${dashboardMembers.principalId} = ${id}`);
  return rows.map((r) => r.id);
}
