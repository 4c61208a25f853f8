import type { AdminUser } from "../lib/operators-api";

/**
 * A group's members by name, as the groups table lists them: alphabetical, at most `max`, and how
 * many more. Ids of accounts that no longer exist are left out.
 */
export function memberNames(
  ids: readonly string[],
  users: readonly Pick<AdminUser, "id" | "name">[],
  max = 6,
): { names: string[]; more: number } {
  const byId = new Map(users.map((u) => [u.id, u.name]));
  const names = ids
    .flatMap((id) => {
      const name = byId.get(id);
      return name === undefined ? [] : [name];
    })
    .sort((a, b) => a.localeCompare(b));
  return { names: names.slice(0, max), more: Math.max(0, names.length - max) };
}

/** The users whose name or address contains the search, by name. */
export function matchingUsers<U extends Pick<AdminUser, "name" | "email">>(
  users: readonly U[],
  search: string,
): U[] {
  const wanted = search.trim().toLowerCase();
  return users
    .filter((u) => !wanted || u.name.toLowerCase().includes(wanted) || u.email.toLowerCase().includes(wanted))
    .sort((a, b) => a.name.localeCompare(b.name));
}
