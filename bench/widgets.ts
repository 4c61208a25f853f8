/**
 * Authenticated `GET /api/widgets?dashboardId=…` on PostgreSQL against a bare Fastify route that
 * returns the same JSON, measured in the same run with the same load. Prints req/s, p50 and p99
 * for both and the ratio (target: at least 0.35). Usage: npm run bench:widgets
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { createPostgresDatabase } from "../test/support/services.js";
import { freePort, median, startProcess, stopProcess } from "./support/processes.js";
import { signUpOverHttp } from "./support/sign-up.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;

async function load(url: string, headers: Record<string, string>) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function main() {
  const database = await createPostgresDatabase();
  const appPort = await freePort();
  const barePort = await freePort();
  const base = `http://127.0.0.1:${appPort}`;
  const app = await startProcess(
    "src/server/main.ts",
    {
      PORT: String(appPort),
      DATABASE_URL: database.url,
      AUTH_SECRET: "bench-secret-bench-secret-bench-secret-42",
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64"),
      LOG_LEVEL: "warn",
      RATE_LIMIT_ENABLED: "false",
      WEB_DIST: "/nonexistent",
    },
    `${base}/healthz`,
  );
  let bare: Awaited<ReturnType<typeof startProcess>> | null = null;
  try {
    const { cookie } = await signUpOverHttp(base);
    const json = { "content-type": "application/json", origin: base, cookie };
    const dashboard = await (
      await fetch(`${base}/api/dashboards`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ name: "Bench" }),
      })
    ).json();
    for (let i = 0; i < 20; i++) {
      await fetch(`${base}/api/widgets`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({
          dashboardId: dashboard.id,
          widgetType: "Todo",
          height: 200,
          width: 300,
          positionX: (i % 4) * 320,
          positionY: Math.floor(i / 4) * 220,
          config: {
            todos: [{ id: `t${i}`, text: `Task ${i}`, done: false, createdAt: new Date().toISOString() }],
          },
        }),
      });
    }
    const url = `${base}/api/widgets?dashboardId=${dashboard.id}`;
    const body = await (await fetch(url, { headers: { cookie } })).text();
    const bodyFile = path.join(tmpdir(), `tessera-bench-${process.pid}.json`);
    writeFileSync(bodyFile, body);
    bare = await startProcess(
      "bench/support/bare-server.ts",
      { PORT: String(barePort), BARE_BODY_FILE: bodyFile },
      `http://127.0.0.1:${barePort}/healthz`,
    );
    const bareUrl = `http://127.0.0.1:${barePort}/api/widgets?dashboardId=${dashboard.id}`;

    console.log(
      `20 widgets, ${body.length} bytes per response; ${ROUNDS} rounds of ${DURATION} s, ${CONNECTIONS} connections`,
    );
    await load(url, { cookie }); // warm-up: JIT, pools, session cache
    await load(bareUrl, {});
    const ours: { rps: number; p50: number; p99: number }[] = [];
    const baseline: typeof ours = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate the order so drift on a noisy machine hits both sides alike.
      if (round % 2 === 0) {
        ours.push(await load(url, { cookie }));
        baseline.push(await load(bareUrl, {}));
      } else {
        baseline.push(await load(bareUrl, {}));
        ours.push(await load(url, { cookie }));
      }
      console.log(
        `round ${round + 1}: tessera ${ours.at(-1)!.rps.toFixed(0)} req/s, bare ${baseline.at(-1)!.rps.toFixed(0)} req/s`,
      );
    }
    const summary = (rows: typeof ours) => ({
      rps: median(rows.map((r) => r.rps)),
      p50: median(rows.map((r) => r.p50)),
      p99: median(rows.map((r) => r.p99)),
    });
    const t = summary(ours);
    const b = summary(baseline);
    console.log("\nmedians            req/s     p50 ms   p99 ms");
    console.log(
      `tessera (PG)   ${t.rps.toFixed(0).padStart(9)} ${String(t.p50).padStart(9)} ${String(t.p99).padStart(8)}`,
    );
    console.log(
      `bare fastify   ${b.rps.toFixed(0).padStart(9)} ${String(b.p50).padStart(9)} ${String(b.p99).padStart(8)}`,
    );
    console.log(`ratio (tessera / bare req/s): ${(t.rps / b.rps).toFixed(2)}  (target >= 0.35)`);
  } finally {
    if (bare) await stopProcess(bare);
    await stopProcess(app);
    await database.drop();
  }
}

await main();
