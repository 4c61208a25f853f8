// `npm start`: builds the web app when its sources are newer than the build, then runs the server.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const built = path.join(root, "dist/web/index.html");

function newest(dir) {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

const webSources = [path.join(root, "src/web"), path.join(root, "src/contract")];
const needsBuild =
  existsSync(path.join(root, "src/web/index.html")) &&
  (!existsSync(built) || Math.max(...webSources.map(newest)) > statSync(built).mtimeMs);

if (needsBuild && process.env.SKIP_WEB_BUILD !== "1") {
  console.log("Building the web app…");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build"], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The server runs in this very process (no child), so SIGTERM reaches its graceful shutdown directly.
const { register } = await import("tsx/esm/api");
register();
await import(path.join(root, "src/server/main.ts"));
