// The child process of ./init.ts: initdb and migrations into a staging directory, then exit, so
// the init spike of PGlite's memory leaves with this process.
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { openEngine } from "./engine.js";

const [dir, migrationsFolder, tuned] = process.argv.slice(2);
if (!dir || !migrationsFolder) {
  process.stderr.write("usage: init-entry <dir> <migrations folder> <tuned 1|0>\n");
  process.exit(2);
}
const pg = await openEngine({ dir, tuned: tuned !== "0" });
await migrate(drizzle({ client: pg }), { migrationsFolder });
await pg.close();
