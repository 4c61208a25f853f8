/**
 * Exchange benchmark: 1,000 concurrent GET /api/exchange/prices for the default pairs against
 * the fake exchange, with the app in its own process and a cold cache every round.
 *
 *   npx tsx bench/exchange/run.ts        (ROUNDS=5 CONCURRENCY=1000 LATENCY_MS=50 by default)
 *
 * Prints per round and as medians: upstream calls, p50/p99 latency (request sent to last body
 * byte), and the most upstream requests the fake saw inside any one second. Targets: at most 3
 * upstream calls, p99 < 200 ms. GET /healthz under the same burst is printed as the floor.
 * Requests accept gzip as browsers do; the bytes are read but not inflated, as a browser would
 * inflate them natively, outside the server's time.
 */
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { maxInWindow, startFakeExchange } from "../../test/fakes/exchange.js";
import { freePort, median, startProcess, stopProcess } from "../support/processes.js";
import { signUpOverHttp } from "../support/sign-up.js";

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 1000);
/** The fake's answer delay, standing in for the round trip to the real exchange. */
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 50);

const log = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One GET over the agent; resolves with its status and milliseconds until the whole body is in. */
function get(agent: http.Agent, url: string, cookie: string) {
  return new Promise<{ status: number; ms: number }>((resolve) => {
    const started = performance.now();
    http
      .get(url, { agent, headers: { cookie, "accept-encoding": "gzip" } }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      })
      .on("error", () => resolve({ status: 0, ms: performance.now() - started }));
  });
}

function summarize(results: { status: number; ms: number }[]) {
  const sorted = results.map((r) => r.ms).sort((a, b) => a - b);
  const at = (p: number) => Math.round(sorted[Math.ceil(p * sorted.length) - 1]!);
  return { p50: at(0.5), p99: at(0.99), failed: results.filter((r) => r.status !== 200).length };
}

async function round(index: number) {
  const fake = await startFakeExchange({ latencyMs: LATENCY_MS });
  const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-bench-exchange-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = await startProcess(
    "src/server/main.ts",
    {
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: base,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      EXCHANGE_URL: fake.url,
      EXCHANGE_CLIENT_ID: fake.exchange.clientId,
      EXCHANGE_CLIENT_SECRET: fake.exchange.clientSecret,
      EXCHANGE_PASSPHRASE: fake.exchange.passphrase,
    },
    `${base}/healthz`,
  );
  // Keep-alive connections opened beforehand: the burst measures requests, not 1,000 TCP
  // handshakes at once overflowing the listen backlog (dropped SYNs are retried after 1 s).
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY, maxFreeSockets: CONCURRENCY });
  try {
    const cookie = (await signUpOverHttp(base)).cookie;
    const burst = async (url: string) =>
      summarize(await Promise.all(Array.from({ length: CONCURRENCY }, () => get(agent, base + url, cookie))));
    await burst("/healthz");
    // A long-running server is JIT-warm: exercise the same code on other pairs first, then let
    // their upstream slots lapse and forget them, so the measured burst starts with a cold cache.
    await burst("/api/exchange/prices?pairs=ADA-USD,ADA-EUR,DOT-USD");
    await sleep(1200);
    await fake.reset();
    await fake.configure({ latencyMs: LATENCY_MS });
    // The floor on this machine: the same burst against a route that does nothing.
    const floor = await burst("/healthz");
    const result = await burst("/api/exchange/prices");
    const upstream = await fake.requests();
    const figures = {
      ...result,
      upstream: upstream.length,
      worstPerSecond: maxInWindow(upstream.map((r) => r.at)),
      floorP99: floor.p99,
    };
    log(
      `round ${index + 1}: upstream calls ${figures.upstream}, p50 ${figures.p50} ms, p99 ${figures.p99} ms, ` +
        `worst upstream/s ${figures.worstPerSecond}, failed ${figures.failed} (GET /healthz p99 ${figures.floorP99} ms)`,
    );
    return figures;
  } finally {
    agent.destroy();
    await stopProcess(app);
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

log(
  `${CONCURRENCY} concurrent GET /api/exchange/prices (BTC-USD, ETH-USD, SOL-USD, 24h), fake latency ${LATENCY_MS} ms`,
);
const rounds: Awaited<ReturnType<typeof round>>[] = [];
for (let i = 0; i < ROUNDS; i++) rounds.push(await round(i));
const med = (key: "p50" | "p99" | "floorP99") => median(rounds.map((r) => r[key]));
const summary = {
  upstream: Math.max(...rounds.map((r) => r.upstream)),
  worstPerSecond: Math.max(...rounds.map((r) => r.worstPerSecond)),
  failed: rounds.reduce((sum, r) => sum + r.failed, 0),
};
log(
  `median of ${ROUNDS}: p50 ${med("p50")} ms, p99 ${med("p99")} ms (GET /healthz p99 ${med("floorP99")} ms); ` +
    `worst round: upstream calls ${summary.upstream}, upstream/s ${summary.worstPerSecond}; failed ${summary.failed}`,
);
const ok = summary.upstream <= 3 && med("p99") < 200 && summary.failed === 0;
log(ok ? "targets met (<= 3 upstream calls, p99 < 200 ms)" : "TARGETS MISSED");
process.exitCode = ok ? 0 : 1;
