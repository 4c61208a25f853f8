import { asc, eq } from "drizzle-orm";
import type { Directory } from "../../contract/sharing.js";
import type { SignupMode } from "../config.js";
import type { Db } from "../db/client.js";
import { user } from "../db/schema.js";
import { listGroups } from "./groups.js";

/**
 * Whom a user may pick to share with. On an instance anyone may join, the user list would hand
 * every stranger every account's name: there, only the caller's own groups, and people by email.
 */
export async function directoryFor(db: Db, userId: string, signupMode: SignupMode): Promise<Directory> {
  if (signupMode === "open") {
    const groups = await listGroups(db, userId);
    return { users: [], groups: groups.map(({ id, name }) => ({ id, name })) };
  }
  const [users, groups] = await Promise.all([
    db
      .select({ id: user.id, name: user.name, image: user.image })
      .from(user)
      .where(eq(user.banned, false))
      .orderBy(asc(user.name), asc(user.id)),
    listGroups(db),
  ]);
  return { users, groups: groups.map(({ id, name }) => ({ id, name })) };
}
