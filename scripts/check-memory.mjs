// The memory budget of the embedded default, checked in CI (.ci/run): the compiled server started
// as `npm start` starts it (same Node flags), on an empty DATA_DIR, then restarted on that data.
// Fails when the RSS right after the first start or the idle RSS 20 s after the restart is over
// its budget. Usage: npm run check:memory
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { build, isStale, ROOT } from "./build.mjs";
import { startCommand } from "./start-command.mjs";

/**
 * Budgets in MiB. The first-start budget is issue 12's bar. The idle sample 20 s after a restart
 * is bimodal (~155 or ~185 MiB on a quiet machine) because it races V8's memory reducer: the
 * warm-up after listening compiles every route's schemas and leaves ~25 MiB of garbage on the
 * main thread's heap (and the embedded database's thread ~12 MiB of its own), which V8 hands
 * back only once allocation has gone quiet, 8 s to a minute later (GC traces, session 20). What
 * a settled server holds is ~155 MiB. Not compiling the data routes' unused union serializer
 * (widgets/data.ts) made the low mode the usual one; the budget stays at 200 until the sample
 * waits for the reducer (or the warm-up makes less garbage), then back to 170.
 */
export const FIRST_START_BUDGET = 300;
export const IDLE_BUDGET = 200;
const IDLE_SECONDS = Number(process.env.CHECK_IDLE_SECONDS ?? 20);
/** Restarts measured; the median is held to the budget (one sample swings ±20 MiB on a busy machine). */
const RESTARTS = Number(process.env.CHECK_RESTARTS ?? 3);

const { env: startEnv, flags } = startCommand();

const rssMiB = (pid) =>
  Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function start(dataDir) {
  const port = await freePort();
  const child = spawn(process.execPath, [...flags, path.join(ROOT, "dist/server/main.js")], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...startEnv,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      WEB_DIST: "/nonexistent",
      DATABASE_URL: "",
      REDIS_URL: "",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const started = Date.now();
  while (Date.now() - started < 60_000) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return { child, ms: Date.now() - started };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  child.kill("SIGKILL");
  throw new Error("the server did not answer /healthz within 60 s");
}

function stop(child) {
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  return exited;
}

if (isStale("server")) await build(["server"]);
const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-memory-"));
let failed = false;
try {
  const first = await start(dataDir);
  const firstRss = rssMiB(first.child.pid);
  await stop(first.child);
  const samples = [];
  let restartMs = 0;
  for (let i = 0; i < RESTARTS; i++) {
    const again = await start(dataDir);
    restartMs = again.ms;
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    samples.push(rssMiB(again.child.pid));
    await stop(again.child);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  const idleRss = sorted[Math.floor(sorted.length / 2)];
  const line = (what, value, budget) => {
    const ok = value <= budget;
    failed ||= !ok;
    return `${what.padEnd(44)} ${value.toFixed(0).padStart(5)} MiB  budget ${budget} MiB  ${ok ? "ok" : "OVER BUDGET"}`;
  };
  console.log(
    `Embedded server memory (${Object.entries(startEnv)
      .map(([k, v]) => `${k}=${v} `)
      .join("")}node ${flags.join(" ")})`,
  );
  console.log(line("RSS right after the first start", firstRss, FIRST_START_BUDGET));
  console.log(line(`idle RSS ${IDLE_SECONDS} s after a restart, median`, idleRss, IDLE_BUDGET));
  console.log(
    `(restarts: ${samples.map((v) => v.toFixed(0)).join(", ")} MiB; last restart to /healthz: ${restartMs} ms)`,
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
if (failed) process.exit(1);
