import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The project's drizzle/ folder, found upwards from here: from src/server/db or from dist/server. */
function findMigrations(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, "drizzle");
    if (existsSync(path.join(candidate, "meta/_journal.json"))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("the drizzle/ migrations folder was not found");
    dir = parent;
  }
}
/** Where both modes read their migrations. */
export const migrationsFolder = findMigrations();
