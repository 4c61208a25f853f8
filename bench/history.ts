/**
 * What recording dashboard history costs a write: `PUT /api/widgets` moving one widget of a
 * 20-widget dashboard (the drag path) and changing its config, with history on and off, in the
 * same run, embedded and on PostgreSQL. In process (app.inject), so only the server's own work is
 * measured. Prints the median per-request time of each and the ratio; the bar is a ratio <= 1.5
 * for moves (one extra read and one small write inside the transaction).
 * Usage: npm run bench:history   (BENCH_ROUNDS, BENCH_REQUESTS)
 */
import { buildApp } from "../src/server/app.js";
import { TestClient } from "../test/support/client.js";
import { testConfig } from "../test/support/config.js";
import { createPostgresDatabase } from "../test/support/services.js";
import { median } from "./support/processes.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);

async function measure(databaseUrl: string | null, historyEnabled: boolean) {
  const built = await buildApp(testConfig({ databaseUrl, historyEnabled, rateLimitEnabled: false }));
  try {
    const client = new TestClient(built.app);
    await client.signUp("Bench");
    const dashboardId = (await client.post("/api/dashboards", { name: "Bench" })).body.id;
    let id = "";
    for (let i = 0; i < 20; i++)
      id = (
        await client.post("/api/widgets", {
          dashboardId,
          widgetType: "Todo",
          height: 200,
          width: 300,
          positionX: i * 10,
          positionY: 0,
          config: {
            todos: [
              {
                id: `t${i}`,
                text: "a todo item of some length",
                done: false,
                createdAt: new Date().toISOString(),
              },
            ],
          },
        })
      ).body.id;
    const time = async (body: (i: number) => object) => {
      const start = process.hrtime.bigint();
      for (let i = 0; i < REQUESTS; i++) {
        const res = await client.put("/api/widgets", { id, ...body(i) });
        if (res.status !== 200) throw new Error(`PUT answered ${res.status}`);
      }
      return Number(process.hrtime.bigint() - start) / 1e6 / REQUESTS;
    };
    return {
      move: await time((i) => ({ positionX: i % 500 })),
      config: await time((i) => ({ config: { todos: [], n: i } })),
    };
  } finally {
    await built.close();
  }
}

async function main() {
  const pg = await createPostgresDatabase();
  try {
    for (const [mode, url] of [
      ["embedded", null],
      ["postgres", pg.url],
    ] as const) {
      const on: { move: number; config: number }[] = [];
      const off: { move: number; config: number }[] = [];
      // Interleaved, so drift on a noisy machine hits both alike.
      for (let r = 0; r < ROUNDS; r++) {
        off.push(await measure(url, false));
        on.push(await measure(url, true));
      }
      for (const kind of ["move", "config"] as const) {
        const a = median(off.map((x) => x[kind]));
        const b = median(on.map((x) => x[kind]));
        const bar = kind === "move" ? " (bar <= 1.50)" : "";
        console.log(
          `${mode.padEnd(9)} PUT ${kind.padEnd(6)} history off ${a.toFixed(2)} ms, on ${b.toFixed(2)} ms, ratio ${(b / a).toFixed(2)}x${bar}`,
        );
      }
    }
  } finally {
    await pg.drop();
  }
}

await main();
