/**
 * Does keeping STREAMS realtime streams alive stall other requests? The compiled server (as
 * `npm start` runs it, embedded default) holds STREAMS open streams while this process reads
 * /healthz one request after another for SECONDS seconds (two heartbeat laps of 20 s and more);
 * the same reads with no stream open are the baseline, measured first in the same run.
 *
 *   npm run build && npx tsx bench/heartbeat-stall.ts     (STREAMS=10000 SECONDS=45)
 *   ENTRY=/elsewhere/dist/server/main.js ...              (another build, for an A/B)
 *
 * Bar: the slowest read while streams are open within 50 ms of the baseline's slowest (issue
 * 36 measured 266-341 ms stalls every 20 s at 10,000 streams with a single heartbeat pass).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { SseClient } from "./realtime/sse-client.js";
import { ROOT } from "./support/processes.js";
import { startServer, stopServer } from "./support/server.js";
import { signUpOverHttp } from "./support/sign-up.js";

const STREAMS = Number(process.env.STREAMS ?? 10_000);
const SECONDS = Number(process.env.SECONDS ?? 45);
const BASELINE_SECONDS = 10;
const BAR_MS = 50;

const log = (line: string) => process.stdout.write(`${line}\n`);
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

/** Sequential reads of /healthz for `seconds`: each latency in ms. */
async function probe(base: string, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const started = performance.now();
    const res = await fetch(`${base}/healthz`);
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return latencies.sort((a, b) => a - b);
}

const describe = (label: string, sorted: number[]) =>
  `${label.padEnd(22)} n=${sorted.length}  p50 ${percentile(sorted, 50).toFixed(1)} ms  p99 ${percentile(sorted, 99).toFixed(1)} ms  max ${sorted.at(-1)!.toFixed(1)} ms  >50 ms: ${sorted.filter((l) => l > 50).length}`;

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "tessera-heartbeat-"));
  const entry = process.env.ENTRY ? path.relative(ROOT, process.env.ENTRY) : undefined;
  const server = await startServer(
    {
      DATA_DIR: dir,
      AUTH_SECRET: "bench-secret-bench-secret-bench-secret-012345",
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString("base64"),
      LIMIT_STREAMS_PER_USER: String(STREAMS + 10),
      // The streams and the probe: the default cap (10,000) would refuse the last ones.
      HTTP_MAX_CONNECTIONS: String(STREAMS + 100),
    },
    undefined,
    entry,
  );
  const streams: SseClient[] = [];
  try {
    log(`heartbeat stall: ${STREAMS} streams, load ${loadavg()[0]!.toFixed(2)}`);
    const user = await signUpOverHttp(server.base, "heartbeat");
    const baseline = await probe(server.base, BASELINE_SECONDS);
    log(`  ${describe("no streams", baseline)}`);
    const opening = performance.now();
    for (let i = 0; i < STREAMS; i += 100) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(100, STREAMS - i) }, () =>
          SseClient.open(`${server.base}/api/realtime`, { authorization: `Bearer ${user.token}` }),
        ),
      );
      for (const client of batch)
        if (client.status !== 200) throw new Error(`stream answered ${client.status}`);
      streams.push(...batch);
    }
    log(`  opened ${STREAMS} streams in ${((performance.now() - opening) / 1000).toFixed(1)} s`);
    const loaded = await probe(server.base, SECONDS);
    log(`  ${describe(`${STREAMS} streams`, loaded)}`);
    const heartbeats = streams.reduce((n, s) => n + s.comments.length, 0);
    log(`  keep-alive comments received: ${heartbeats} (${(heartbeats / STREAMS).toFixed(2)} per stream)`);
    const excess = loaded.at(-1)! - baseline.at(-1)!;
    log(
      `  slowest read over baseline: ${excess.toFixed(1)} ms  (bar <= ${BAR_MS} ms)  ${excess <= BAR_MS ? "ok" : "OVER"}  load ${loadavg()[0]!.toFixed(2)}`,
    );
  } finally {
    for (const stream of streams) stream.close();
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
