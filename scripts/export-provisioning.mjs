// `npm run export-provisioning [-- <dir>]`: writes the instance's dashboards and integrations as
// provisioning files (DESIGN section 17) into <dir> (default ./provisioning), from the database
// the environment names (DATA_DIR or DATABASE_URL), through the compiled server as `npm start`
// runs it. In embedded mode stop the server first: its database has one user at a time.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { isStale, ROOT } from "./build.mjs";

if (isStale("server")) {
  const built = spawnSync(process.execPath, [path.join(ROOT, "scripts/build.mjs"), "server"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const run = spawnSync(
  process.execPath,
  [path.join(ROOT, "dist/server/main.js"), "export-provisioning", process.argv[2] ?? "provisioning"],
  { stdio: "inherit" },
);
process.exit(run.status ?? 1);
