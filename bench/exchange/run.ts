/**
 * Exchange benchmark: 1,000 concurrent GET /api/exchange/prices for the default pairs against
 * the fake exchange, with the app in its own process and a cold cache every round.
 *
 *   npx tsx bench/exchange/run.ts        (ROUNDS=5 CONCURRENCY=1000 LATENCY_MS=50 by default)
 *
 * Prints per round and as medians: upstream calls, p50/p99 latency, and the most upstream
 * requests the fake saw inside any one second. Targets: at most 3 upstream calls, p99 < 200 ms.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { maxInWindow, startFakeExchange } from "../../test/fakes/exchange.js";
import { freePort, median, startProcess, stopProcess } from "../support/processes.js";

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 1000);
/** The fake's answer delay, standing in for the round trip to the real exchange. */
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 50);

const log = (line: string) => process.stdout.write(`${line}\n`);

async function signUp(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({
      name: "Bench",
      email: `bench-${Date.now()}@example.test`,
      password: "bench-Secret-1",
    }),
  });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("session="));
  if (!cookie) throw new Error("sign-up set no session cookie");
  return cookie.split(";")[0]!;
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
  try {
    const cookie = await signUp(base);
    const burst = (url: string) =>
      autocannon({ url: base + url, connections: CONCURRENCY, amount: CONCURRENCY, headers: { cookie } });
    // A long-running server is JIT-warm: exercise the same code on another pair first, then let its
    // upstream slot lapse and forget it, so the measured burst still starts with a cold cache.
    await burst("/api/exchange/prices?pairs=ADA-USD,ADA-EUR,DOT-USD");
    await new Promise((r) => setTimeout(r, 1200));
    await fake.reset();
    await fake.configure({ latencyMs: LATENCY_MS });
    // The floor on this machine: the same burst against a route that does nothing.
    const floor = await burst("/healthz");
    const result = await burst("/api/exchange/prices");
    const upstream = await fake.requests();
    const figures = {
      upstream: upstream.length,
      p50: result.latency.p50,
      p99: result.latency.p99,
      worstPerSecond: maxInWindow(upstream.map((r) => r.at)),
      failed: result.non2xx + result.errors,
      floorP99: floor.latency.p99,
    };
    log(
      `round ${index + 1}: upstream calls ${figures.upstream}, p50 ${figures.p50} ms, p99 ${figures.p99} ms, ` +
        `worst upstream/s ${figures.worstPerSecond}, failed ${figures.failed} (GET /healthz p99 ${figures.floorP99} ms)`,
    );
    return figures;
  } finally {
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
const med = (key: keyof (typeof rounds)[number]) => median(rounds.map((r) => r[key]));
const summary = {
  upstream: Math.max(...rounds.map((r) => r.upstream)),
  p50: med("p50"),
  p99: med("p99"),
  worstPerSecond: Math.max(...rounds.map((r) => r.worstPerSecond)),
  failed: rounds.reduce((sum, r) => sum + r.failed, 0),
  floorP99: med("floorP99"),
};
log(
  `median of ${ROUNDS}: p50 ${summary.p50} ms, p99 ${summary.p99} ms; worst round: upstream calls ${summary.upstream}, ` +
    `upstream/s ${summary.worstPerSecond}; failed requests ${summary.failed}; GET /healthz p99 ${summary.floorP99} ms`,
);
const ok = summary.upstream <= 3 && summary.p99 < 200 && summary.failed === 0;
log(ok ? "targets met (<= 3 upstream calls, p99 < 200 ms)" : "TARGETS MISSED");
process.exitCode = ok ? 0 : 1;
