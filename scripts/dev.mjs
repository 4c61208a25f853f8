// `npm run dev`: the API server (restarted on change) behind the Vite dev server (hot reload).
// The browser talks to Vite on PORT (default 3000); Vite proxies /api to the API on PORT+1, so
// both share one origin and the session cookie and Origin check behave as in production.
import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const host = process.env.HOST ?? "127.0.0.1";
const port = Number(process.env.PORT ?? 3000);
const apiPort = port + 1;
const publicUrl = process.env.BASE_URL ?? `http://${host === "0.0.0.0" ? "localhost" : host}:${port}`;

const children = [];
function run(name, args, env) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...env },
  });
  child.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`[dev] ${name} exited (${signal ?? code}); stopping`);
    stop(code ?? 1);
  });
  children.push(child);
}

let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  setTimeout(() => process.exit(code), 500).unref();
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

run("api", ["--import", "tsx", "--watch", "src/server/main.ts"], {
  PORT: String(apiPort),
  HOST: "127.0.0.1",
  BASE_URL: publicUrl,
  // The dev server serves the app itself; the API must not serve a stale build.
  WEB_DIST: path.join(root, "dist/dev-none"),
});
run("web", [path.join(root, "node_modules/vite/bin/vite.js")], {
  PORT: String(port),
  HOST: host,
  TESSERA_API_URL: `http://127.0.0.1:${apiPort}`,
});
console.log(`[dev] app on ${publicUrl} (API on http://127.0.0.1:${apiPort})`);
