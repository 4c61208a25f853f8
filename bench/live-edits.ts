/**
 * `npm run bench:live`: live co-editing (DESIGN section 14, "a change reaches every watcher on
 * every instance within 200 ms, p99"). WATCHERS people watch one shared dashboard
 * (`GET /api/realtime?dashboard=`), spread over two server processes on PostgreSQL + Redis; an
 * editor connected to the first moves a widget EDITS times, EDIT_GAP_MS apart, each `PUT
 * /api/widgets` waiting for its answer as a tab does. Then the same on the embedded default, one
 * process. Per edit it takes the time from the edit's HTTP answer to its `widget.updated` at each
 * watcher (an event may arrive before the answer: negative), and the time until the last watcher
 * had it; the bar is on the latter's p99. Latencies from the request's send are printed beside.
 * Usage: npm run bench:live   (BENCH_WATCHERS 100, BENCH_EDITS 200, BENCH_EDIT_GAP_MS 50)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createPostgresDatabase, createRedisNamespace } from "../test/support/services.js";
import { SseClient } from "./realtime/sse-client.js";
import { freePort, startProcess, stopProcess } from "./support/processes.js";
import { signUpOverHttp } from "./support/sign-up.js";

const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 100);
const EDITS = Number(process.env.BENCH_EDITS ?? 200);
const EDIT_GAP_MS = Number(process.env.BENCH_EDIT_GAP_MS ?? 50);
const WARM_UP_EDITS = 20;
const BAR_P99_MS = 200;

const row = (label: string, value: string, bar = "") =>
  console.log(`${label.padEnd(44)} ${value.padStart(20)}  ${bar}`);
const ms = (value: number) => `${value.toFixed(1)} ms`;
const sleep = (delay: number) => new Promise((resolve) => setTimeout(resolve, delay));

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Runs `task` over `items` with at most `limit` in flight. */
async function pool<T>(items: T[], limit: number, task: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        await task(items[index]!, index);
      }
    }),
  );
}

const BASE_ENV = {
  AUTH_SECRET: "bench-secret-bench-secret-bench-secret-live",
  TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
  LOG_LEVEL: "warn",
  RATE_LIMIT_ENABLED: "false",
  SIGNUP_MODE: "open",
  WEB_DIST: "/nonexistent",
};

async function startServers(count: number, env: Record<string, string>) {
  const servers: { base: string; child: Awaited<ReturnType<typeof startProcess>> }[] = [];
  // One after the other: both would migrate a fresh database at once otherwise (safe, but slower).
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = await startProcess(
      "src/server/main.ts",
      { ...BASE_ENV, PORT: String(port), BASE_URL: base, ...env },
      `${base}/healthz`,
    );
    servers.push({ base, child });
  }
  return servers;
}

async function call(base: string, token: string, method: string, url: string, body: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${token}`,
      "x-client-id": "bench-editor",
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return JSON.parse(text);
}

async function measure(label: string, bases: string[]) {
  const editorBase = bases[0]!;
  const editor = await signUpOverHttp(editorBase, "editor");
  const dashboard = await call(editorBase, editor.token, "POST", "/api/dashboards", { name: "Live" });
  const widget = await call(editorBase, editor.token, "POST", "/api/widgets", {
    dashboardId: dashboard.id,
    widgetType: "Clock",
    height: 200,
    width: 300,
    positionX: 0,
    positionY: 0,
    config: {},
  });
  await call(editorBase, editor.token, "PUT", "/api/dashboards/members", {
    id: dashboard.id,
    members: [{ type: "everyone", role: "viewer" }],
  });

  const total = WARM_UP_EDITS + EDITS;
  const sentAt = new Float64Array(total);
  const answeredAt = new Float64Array(total);
  // arrivals[k][w]: when watcher w got edit k (0 until it has).
  const arrivals = Array.from({ length: total }, () => new Float64Array(WATCHERS));
  let unexpected = 0;
  const watchers: SseClient[] = [];
  const started = performance.now();
  await pool([...Array(WATCHERS).keys()], 8, async (w) => {
    const base = bases[w % bases.length]!;
    const person = await signUpOverHttp(base, `watcher-${w}`);
    const stream = await SseClient.open(`${base}/api/realtime?dashboard=${dashboard.id}`, {
      authorization: `Bearer ${person.token}`,
    });
    if (stream.status !== 200) throw new Error(`watcher ${w}: ${stream.status}`);
    stream.onEvent = (event) => {
      if (event.event !== "widget.updated") return;
      const now = performance.now();
      const { data, clientId } = JSON.parse(event.data) as { data: { positionX: number }; clientId: string };
      const k = data.positionX - 1;
      if (clientId !== "bench-editor" || !(k >= 0 && k < total) || arrivals[k]![w] !== 0)
        return void unexpected++;
      arrivals[k]![w] = now;
    };
    watchers.push(stream);
  });
  console.log(
    `${label}: ${WATCHERS} watchers on ${bases.length} instance(s) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  // Every stream is live once the presence list it was sent names everyone.
  await Promise.all(
    watchers.map((stream) =>
      stream.until(
        () =>
          stream.events.some(
            (e) =>
              e.event === "presence" &&
              (JSON.parse(e.data) as { present: unknown[] }).present.length >= WATCHERS,
          ),
        30_000,
        "the full presence list",
      ),
    ),
  );

  for (let k = 0; k < total; k++) {
    sentAt[k] = performance.now();
    await call(editorBase, editor.token, "PUT", "/api/widgets", { id: widget.id, positionX: k + 1 });
    answeredAt[k] = performance.now();
    await sleep(EDIT_GAP_MS);
  }
  const deadline = Date.now() + 5000;
  const complete = () => arrivals.every((edit) => edit.every((at) => at !== 0));
  while (!complete() && Date.now() < deadline) await sleep(20);

  const fromAnswer: number[] = [];
  const fromSend: number[] = [];
  const lastFromAnswer: number[] = [];
  const lastFromSend: number[] = [];
  let lost = 0;
  for (let k = WARM_UP_EDITS; k < total; k++) {
    let last = Number.NEGATIVE_INFINITY;
    for (const at of arrivals[k]!) {
      if (at === 0) {
        lost++;
        continue;
      }
      fromAnswer.push(at - answeredAt[k]!);
      fromSend.push(at - sentAt[k]!);
      last = Math.max(last, at);
    }
    lastFromAnswer.push(last - answeredAt[k]!);
    lastFromSend.push(last - sentAt[k]!);
  }
  for (const list of [fromAnswer, fromSend, lastFromAnswer, lastFromSend]) list.sort((a, b) => a - b);
  const answers = [...answeredAt.keys()].slice(WARM_UP_EDITS).map((k) => answeredAt[k]! - sentAt[k]!);
  answers.sort((a, b) => a - b);
  const p99 = percentile(lastFromAnswer, 99);
  console.log("");
  row(`${label}: edits x watchers`, `${EDITS} x ${WATCHERS}`);
  row(`${label}: deliveries lost`, String(lost), `bar 0 ${lost === 0 ? "ok" : "LOST SOME"}`);
  row(
    `${label}: unexpected or repeated events`,
    String(unexpected),
    `bar 0 ${unexpected === 0 ? "ok" : "OVER"}`,
  );
  row(`${label}: PUT answer p50 / p99`, `${ms(percentile(answers, 50))} / ${ms(percentile(answers, 99))}`);
  row(
    `${label}: answer -> a watcher, p50 / p99`,
    `${ms(percentile(fromAnswer, 50))} / ${ms(percentile(fromAnswer, 99))}`,
  );
  row(
    `${label}: send -> a watcher, p50 / p99`,
    `${ms(percentile(fromSend, 50))} / ${ms(percentile(fromSend, 99))}`,
  );
  row(`${label}: send -> every watcher, p99`, ms(percentile(lastFromSend, 99)));
  row(`${label}: answer -> every watcher, p50`, ms(percentile(lastFromAnswer, 50)));
  row(
    `${label}: answer -> every watcher, p99`,
    ms(p99),
    `bar <= ${BAR_P99_MS} ms ${p99 <= BAR_P99_MS ? "ok" : "OVER"}`,
  );
  console.log("");
  for (const stream of watchers) stream.close();
  return lost === 0 && unexpected === 0 && p99 <= BAR_P99_MS;
}

async function main() {
  console.log(
    `${WATCHERS} watchers of one dashboard, one editor moving a widget ${EDITS} times ${EDIT_GAP_MS} ms apart (after ${WARM_UP_EDITS} warm-up edits)\n`,
  );
  let met = true;
  const database = await createPostgresDatabase();
  const redis = await createRedisNamespace();
  const scaled = await startServers(2, {
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
  });
  try {
    met =
      (await measure(
        "postgres+redis x2",
        scaled.map((s) => s.base),
      )) && met;
  } finally {
    for (const server of scaled) await stopProcess(server.child);
    await redis.cleanup();
    await database.drop();
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-bench-live-"));
  const [embedded] = await startServers(1, { DATA_DIR: dataDir });
  try {
    met = (await measure("embedded x1", [embedded!.base])) && met;
  } finally {
    await stopProcess(embedded!.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.exitCode = met ? 0 : 1;
}

await main();
