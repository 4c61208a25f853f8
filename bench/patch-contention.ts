/**
 * `npm run bench:patch`: 10 editors each sending 20 `PATCH /api/widgets` appends to one Todo at
 * once (DESIGN section 14, "No lost updates"), against the server in its own process over HTTP,
 * on the embedded default (PGlite on disk, its own thread) and on PostgreSQL. Each editor waits
 * for its answer before sending the next, as a tab does. Prints appends lost (bar 0), answers
 * other than 200 (bar 0) and the latency of one PATCH, p50 and p99 over every round (bar: p99
 * <= 250 ms; the patches of one widget queue on its row, so p99 is ~10 transactions back to back).
 * Usage: npm run bench:patch   (BENCH_ROUNDS, default 3, after one warm-up round)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPostgresDatabase } from "../test/support/services.js";
import { freePort, startProcess, stopProcess } from "./support/processes.js";
import { signUpOverHttp } from "./support/sign-up.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const EDITORS = Number(process.env.BENCH_EDITORS ?? 10);
const PATCHES = 20;
const BAR_P99_MS = 250;

const row = (label: string, value: string, bar = "") =>
  console.log(`${label.padEnd(40)} ${value.padStart(12)}  ${bar}`);

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** One round: a fresh Todo, every editor appending at once; the latencies and what landed. */
async function round(base: string, headers: Record<string, string>, dashboardId: string) {
  const created = await fetch(`${base}/api/widgets`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      dashboardId,
      widgetType: "Todo",
      height: 300,
      width: 300,
      positionX: 0,
      positionY: 0,
      config: { todos: [] },
    }),
  });
  const widget = (await created.json()) as { id: string };
  const latencies: number[] = [];
  let refused = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: EDITORS }, async (_, editor) => {
      for (let i = 0; i < PATCHES; i++) {
        const value = { id: `e${editor}-${i}`, text: `editor ${editor} item ${i}`, done: false };
        const sent = performance.now();
        const res = await fetch(`${base}/api/widgets`, {
          method: "PATCH",
          headers,
          body: JSON.stringify({ id: widget.id, ops: [{ op: "add", path: "/config/todos/-", value }] }),
        });
        await res.arrayBuffer();
        latencies.push(performance.now() - sent);
        if (res.status !== 200) refused++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const list = (await (
    await fetch(`${base}/api/widgets?dashboardId=${dashboardId}`, { headers })
  ).json()) as {
    id: string;
    config: { todos: { id: string }[] };
  }[];
  const landed = new Set(list.find((w) => w.id === widget.id)!.config.todos.map((t) => t.id)).size;
  return { latencies, refused, lost: EDITORS * PATCHES - landed, seconds };
}

async function measure(label: string, env: Record<string, string>) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startProcess(
    "src/server/main.ts",
    {
      PORT: String(port),
      BASE_URL: base,
      AUTH_SECRET: "bench-secret-bench-secret-bench-secret-42",
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64"),
      LOG_LEVEL: "warn",
      RATE_LIMIT_ENABLED: "false",
      SIGNUP_MODE: "open",
      WEB_DIST: "/nonexistent",
      ...env,
    },
    `${base}/healthz`,
  );
  try {
    const { cookie } = await signUpOverHttp(base);
    const headers = { "content-type": "application/json", origin: base, cookie };
    const dashboard = (await (
      await fetch(`${base}/api/dashboards`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "Bench" }),
      })
    ).json()) as { id: string };
    await round(base, headers, dashboard.id); // warm-up: JIT, pools, session cache
    const latencies: number[] = [];
    let lost = 0;
    let refused = 0;
    let seconds = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const result = await round(base, headers, dashboard.id);
      latencies.push(...result.latencies);
      lost += result.lost;
      refused += result.refused;
      seconds += result.seconds;
      const sorted = [...result.latencies].sort((a, b) => a - b);
      console.log(
        `${label} round ${r + 1}: lost ${result.lost}, p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, ${((EDITORS * PATCHES) / result.seconds).toFixed(0)} patches/s`,
      );
    }
    latencies.sort((a, b) => a - b);
    const p99 = percentile(latencies, 99);
    console.log("");
    row(`${label}: appends sent`, String(ROUNDS * EDITORS * PATCHES));
    row(`${label}: appends lost`, String(lost), `bar 0 ${lost === 0 ? "ok" : "LOST SOME"}`);
    row(`${label}: answers other than 200`, String(refused), `bar 0 ${refused === 0 ? "ok" : "OVER"}`);
    row(`${label}: PATCH p50`, `${percentile(latencies, 50).toFixed(1)} ms`);
    row(
      `${label}: PATCH p99`,
      `${p99.toFixed(1)} ms`,
      `bar ${BAR_P99_MS} ms ${p99 <= BAR_P99_MS ? "ok" : "OVER"}`,
    );
    row(`${label}: patches per second`, ((ROUNDS * EDITORS * PATCHES) / seconds).toFixed(0));
    console.log("");
  } finally {
    await stopProcess(server);
  }
}

async function main() {
  console.log(
    `${EDITORS} editors x ${PATCHES} PATCHes appending to one Todo at once; ${ROUNDS} rounds after a warm-up\n`,
  );
  const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-bench-patch-"));
  try {
    await measure("embedded", { DATA_DIR: dataDir });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const database = await createPostgresDatabase();
  try {
    await measure("postgres", { DATABASE_URL: database.url });
  } finally {
    await database.drop();
  }
}

await main();
