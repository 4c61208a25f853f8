// `npm run backup -- --out FILE` and `npm run restore -- --in FILE [--force]`: builds the server
// when it is missing or stale (as npm start does), then runs the compiled backup command.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { isStale, ROOT } from "./build.mjs";

if (isStale("server") && process.env.SKIP_BUILD !== "1") {
  const result = spawnSync(process.execPath, [path.join(ROOT, "scripts/build.mjs"), "server"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
await import(path.join(ROOT, "dist/server/backup.js"));
