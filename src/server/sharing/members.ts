import { eq, inArray, sql } from "drizzle-orm";
import type { Member, MemberInput, MemberRole, MemberType } from "../../contract/sharing.js";
import type { Db } from "../db/client.js";
import { dashboardMembers, groups, user } from "../db/schema.js";
import { badRequest } from "../http/errors.js";

const EVERYONE = "";

/** Members of a dashboard, people then groups then everyone, by name; rows naming nobody left out. */
export async function listMembers(db: Db, dashboardId: string): Promise<Member[]> {
  const result = (await db.execute(sql`
    SELECT m.principal_type AS type, nullif(m.principal_id, '') AS id,
           coalesce(u.name, g.name, '') AS name, m.role
    FROM dashboard_members m
    LEFT JOIN "user" u ON m.principal_type = 'user' AND u.id = m.principal_id
    LEFT JOIN groups g ON m.principal_type = 'group' AND g.id::text = m.principal_id
    WHERE m.dashboard_id = ${dashboardId}
      AND (m.principal_type = 'everyone' OR u.id IS NOT NULL OR g.id IS NOT NULL)
    ORDER BY CASE m.principal_type WHEN 'user' THEN 0 WHEN 'group' THEN 1 ELSE 2 END, lower(coalesce(u.name, g.name, '')), m.principal_id`)) as unknown as {
    rows: Member[];
  };
  return result.rows;
}

interface Resolved {
  type: MemberType;
  id: string;
  role: MemberRole;
}

/**
 * Turns the body's members into rows: emails into user ids, each user and group checked to exist,
 * the owner and repeats refused. Every problem is listed with its path; nothing is written.
 */
async function resolve(db: Db, ownerId: string, inputs: readonly MemberInput[]): Promise<Resolved[]> {
  const emails = inputs.flatMap((m) => ("email" in m ? [m.email.toLowerCase()] : []));
  const userIds = inputs.flatMap((m) => (m.type === "user" && "id" in m ? [m.id] : []));
  const groupIds = inputs.flatMap((m) => (m.type === "group" ? [m.id] : []));
  const byEmail = new Map(
    emails.length === 0
      ? []
      : (
          await db
            .select({ id: user.id, email: user.email })
            .from(user)
            .where(inArray(sql`lower(${user.email})`, emails))
        ).map((u) => [u.email.toLowerCase(), u.id]),
  );
  const users = new Set(
    userIds.length === 0
      ? []
      : (await db.select({ id: user.id }).from(user).where(inArray(user.id, userIds))).map((u) => u.id),
  );
  const knownGroups = new Set(
    groupIds.length === 0
      ? []
      : (await db.select({ id: groups.id }).from(groups).where(inArray(groups.id, groupIds))).map(
          (g) => g.id,
        ),
  );
  const errors: { path: string; message: string }[] = [];
  const seen = new Set<string>();
  const rows: Resolved[] = [];
  inputs.forEach((input, i) => {
    const path = `/members/${i}`;
    let id: string | undefined;
    if (input.type === "everyone") id = EVERYONE;
    else if (input.type === "group") id = knownGroups.has(input.id) ? input.id : undefined;
    else if ("email" in input) id = byEmail.get(input.email.toLowerCase());
    else id = users.has(input.id) ? input.id : undefined;
    if (id === undefined) {
      const what = input.type === "group" ? "group" : "user";
      const named = "email" in input ? input.email : "id" in input ? input.id : "";
      errors.push({ path, message: `no ${what} ${JSON.stringify(named)} on this instance` });
      return;
    }
    if (input.type === "user" && id === ownerId) {
      errors.push({ path, message: "is the dashboard's owner, who always has full access" });
      return;
    }
    const key = `${input.type}:${id}`;
    if (seen.has(key)) {
      errors.push({ path, message: "is named twice" });
      return;
    }
    seen.add(key);
    rows.push({ type: input.type, id, role: input.role });
  });
  if (errors.length > 0) throw badRequest("Some members cannot be given access", errors);
  return rows;
}

/** Replaces the dashboard's members with these; the caller checked that the actor manages it. */
export async function replaceMembers(
  db: Db,
  dashboard: { id: string; userId: string },
  inputs: readonly MemberInput[],
): Promise<void> {
  const rows = await resolve(db, dashboard.userId, inputs);
  await db.delete(dashboardMembers).where(eq(dashboardMembers.dashboardId, dashboard.id));
  if (rows.length > 0)
    await db.insert(dashboardMembers).values(
      rows.map((r) => ({
        dashboardId: dashboard.id,
        principalType: r.type,
        principalId: r.id,
        role: r.role,
      })),
    );
}
