// `npx tsx bench/status-fairness.ts`: the slow-target attack of issue 29 on the real periodic
// watch pass (pg-boss on PostgreSQL, ALERTS_WATCH_SECONDS=5). User A's Status widgets list
// BENCH_SLOW_TARGETS addresses of a local site that never answers; user B checks one local site
// that answers at once. Prints how often B's site was checked during BENCH_WINDOW_SECONDS, and
// how often each watch queue's pass ran (price alerts, reminders and new mail ride the `watch` one).
import { sql } from "drizzle-orm";
import { buildApp } from "../src/server/app.js";
import { startHangingSite, startStatusSite } from "../src/widgets/status/fake.js";
import { signedInClient, type TestClient } from "../test/support/client.js";
import { testConfig, upstreamConfig } from "../test/support/config.js";
import { createPostgresDatabase } from "../test/support/services.js";

const PERIOD_SECONDS = Number(process.env.BENCH_PERIOD_SECONDS ?? 5);
const SLOW_TARGETS = Number(process.env.BENCH_SLOW_TARGETS ?? 48);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_SECONDS ?? 150) * 1000;
const PER_WIDGET = 20;

const statusWidget = (client: TestClient, checks: { id: string; url: string }[]) =>
  client.addWidget("Status", { checks }, "Homelab");

function summary(label: string, times: number[]) {
  const gaps = times.slice(1).map((t, i) => (t - times[i]!) / 1000);
  const sorted = [...gaps].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  const max = sorted.at(-1) ?? Number.NaN;
  console.log(
    `${label.padEnd(46)} ${String(times.length).padStart(4)} times   interval median ${median.toFixed(1)} s, max ${max.toFixed(1)} s`,
  );
}

async function main() {
  const database = await createPostgresDatabase();
  const slow = await startHangingSite();
  const fast = await startStatusSite(200);
  const built = await buildApp(
    testConfig({
      databaseUrl: database.url,
      alertsWatchSeconds: PERIOD_SECONDS,
      upstream: upstreamConfig({ allowPrivate: ["127.0.0.1"] }),
    }),
  );
  try {
    await built.app.ready();
    const [a, b] = [await signedInClient(built.app, "Attacker"), await signedInClient(built.app, "Bea")];
    await statusWidget(b, [{ id: "mine", url: fast.url }]);
    for (let first = 0; first < SLOW_TARGETS; first += PER_WIDGET) {
      const count = Math.min(PER_WIDGET, SLOW_TARGETS - first);
      await statusWidget(
        a,
        Array.from({ length: count }, (_, i) => ({ id: `t${first + i}`, url: `${slow.url}${first + i}` })),
      );
    }
    await built.ctx.jobs.ensure();
    console.log(
      `period ${PERIOD_SECONDS} s, ${SLOW_TARGETS} never-answering targets for A, one fast target for B; watching ${WINDOW_MS / 1000} s`,
    );
    const from = Date.now();
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    summary(
      "B's check (requests reaching B's site)",
      fast.times.filter((t) => t >= from),
    );
    const jobs = (await built.ctx.database.db.execute(
      sql`SELECT name, started_on FROM pgboss.job WHERE name LIKE 'watch%' AND started_on IS NOT NULL ORDER BY started_on`,
    )) as unknown as { rows: { name: string; started_on: Date | string }[] };
    for (const name of [...new Set(jobs.rows.map((r) => r.name))].sort()) {
      const starts = jobs.rows
        .filter((r) => r.name === name)
        .map((r) => new Date(r.started_on).getTime())
        .filter((t) => t >= from);
      summary(`pass of queue "${name}" (started)`, starts);
    }
    console.log(`A's site: ${slow.requests.length} requests, at most ${slow.mostHeld} held at once`);
  } finally {
    await built.close();
    await Promise.all([slow.stop(), fast.stop()]);
    await database.drop();
  }
}

await main();
