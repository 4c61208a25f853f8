// `npm start`: builds what is missing or older than its sources (the web app, the server), then
// runs the compiled server in this very process, so SIGTERM reaches its graceful shutdown directly.
// A restart with nothing changed compiles nothing. Production images run `node dist/server/main.js`.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { isStale, PARTS, ROOT } from "./build.mjs";

const stale = Object.keys(PARTS).filter((part) => isStale(part));
if (stale.length > 0 && process.env.SKIP_BUILD !== "1") {
  console.log(`Building ${stale.join(" and ")}…`);
  // A child process, so the build's memory never stays with the server; with the usual allocator
  // settings, since the server's (see bench/README.md) are for a long idle life.
  const { GLIBC_TUNABLES: _serverOnly, ...env } = process.env;
  const result = spawnSync(process.execPath, [path.join(ROOT, "scripts/build.mjs"), ...stale], {
    cwd: ROOT,
    env,
    stdio: "inherit",
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await import(path.join(ROOT, "dist/server/main.js"));
