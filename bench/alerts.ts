// `npm run bench:alerts`: 10,000 reminders due within one minute, three server processes (the
// compiled server, as `npm start` runs it) on one PostgreSQL. Prints lost, duplicated, and the
// lateness of each firing (when its transaction committed minus when it was due), p50 and p99,
// next to the bar of issue 16, plus what the database did meanwhile. Not part of CI (minutes).
import { randomBytes } from "node:crypto";
import pg from "pg";
import { cpuSeconds, startServer, stopServer } from "./support/server.js";
import { signUpOverHttp } from "./support/sign-up.js";

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 3);
const USERS = 100;
const PER_USER = Number(process.env.BENCH_REMINDERS_PER_USER ?? 100);
const TOTAL = USERS * PER_USER;
/** The minute the reminders are due in starts this long after set-up begins (set-up takes ~20 s). */
const LEAD_MS = Number(process.env.BENCH_LEAD_MS ?? 60_000);
const SPREAD_MS = 60_000;
const BAR_P99_MS = 2_000;

const row = (label: string, value: string, bar = "") =>
  console.log(`${label.padEnd(44)} ${value.padStart(12)}  ${bar}`);

async function main() {
  const name = `tessera_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const servers: Awaited<ReturnType<typeof startServer>>[] = [];
  const db = new pg.Client({ connectionString: databaseUrl });
  try {
    // One at a time: the first migrates and installs the queue's schema.
    const env = {
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: "bench-secret-bench-secret-bench-secret-42",
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
    };
    for (let i = 0; i < INSTANCES; i++) servers.push(await startServer(env));
    await db.connect();
    const start = Date.now() + LEAD_MS;
    // Users interleaved through the minute, as when many people's reminders fall due at 09:00;
    // BENCH_ONE_USER_AT_A_TIME=1 gives each user's hundred a slice of their own instead.
    const userMajor = process.env.BENCH_ONE_USER_AT_A_TIME === "1";
    const dueOf = (user: number, item: number) => {
      const rank = userMajor ? user * PER_USER + item : item * USERS + user;
      return new Date(start + Math.floor((rank / TOTAL) * SPREAD_MS)).toISOString();
    };
    console.log(
      `setting up ${TOTAL} reminders (${USERS} users x ${PER_USER} to-dos) across ${INSTANCES} instances`,
    );
    await Promise.all(
      Array.from({ length: USERS }, async (_, user) => {
        const base = servers[user % servers.length]!.base;
        const { token } = await signUpOverHttp(base, `alerts${user}`);
        const call = async (path: string, body: unknown) => {
          const res = await fetch(`${base}${path}`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
            body: JSON.stringify(body),
          });
          if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
          return (await res.json()) as { id: string };
        };
        const dashboard = await call("/api/dashboards", { name: "Due" });
        const todos = Array.from({ length: PER_USER }, (_, item) => ({
          id: `t${item}`,
          text: `u${user} item ${item}`,
          done: false,
          dueAt: dueOf(user, item),
        }));
        await call("/api/widgets", {
          dashboardId: dashboard.id,
          widgetType: "Todo",
          height: 300,
          width: 300,
          positionX: 0,
          positionY: 0,
          config: { todos },
        });
      }),
    );
    const setUpLeft = start - Date.now();
    if (setUpLeft < 0) throw new Error(`set-up took longer than ${LEAD_MS} ms; raise BENCH_LEAD_MS`);
    console.log(`set up; the first reminder is due in ${(setUpLeft / 1000).toFixed(1)} s`);

    const stats = async () =>
      (
        await db.query(
          "SELECT xact_commit::bigint AS commits, tup_inserted::bigint AS inserted, tup_updated::bigint AS updated, tup_deleted::bigint AS deleted, blks_hit::bigint + blks_read::bigint AS blocks FROM pg_stat_database WHERE datname = current_database()",
        )
      ).rows[0] as Record<string, string>;
    if (process.env.BENCH_ANALYZE === "1") await db.query("ANALYZE pgboss.job");
    await new Promise((r) => setTimeout(r, Math.max(0, start - Date.now() - 1000)));
    const before = await stats();
    const cpuBefore = servers.map((s) => cpuSeconds(s.child.pid!));
    const deadline = start + SPREAD_MS + 120_000;
    let fired = 0;
    while (Date.now() < deadline) {
      fired = (await db.query("SELECT count(*)::int AS n FROM alert_firings")).rows[0].n;
      if (fired >= TOTAL) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const window = (Date.now() - (start - 1000)) / 1000;
    const after = await stats();
    const cpu = servers.map((s, i) => cpuSeconds(s.child.pid!) - cpuBefore[i]!);
    const lateness = (
      await db.query(`
        SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50,
               percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99,
               max(ms) AS max, min(ms) AS min
        FROM (SELECT extract(epoch FROM fired_at - substring(key FROM '\\d{4}-\\d\\d-\\d\\dT[^Z]*Z$')::timestamptz) * 1000 AS ms
              FROM alert_firings) t`)
    ).rows[0] as Record<string, number>;
    const perUser = (
      await db.query(
        `SELECT count(*)::int AS n, count(DISTINCT message)::int AS distinct_n FROM notifications GROUP BY user_id`,
      )
    ).rows as { n: number; distinct_n: number }[];
    const delivered = perUser.reduce((sum, r) => sum + r.n, 0);
    const duplicated = perUser.reduce((sum, r) => sum + (r.n - r.distinct_n), 0);
    const d = (k: string) => Number(after[k]) - Number(before[k]);
    const retried = (
      await db.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'alerts' AND retry_count > 0`)
    ).rows[0].n as number;

    console.log("");
    row("reminders due within one minute", String(TOTAL));
    row("fired (once-only marks)", String(fired), fired === TOTAL ? "ok" : "LOST SOME");
    row("lost", String(TOTAL - fired), "bar 0");
    row("notifications delivered", String(delivered));
    row("duplicated", String(duplicated), "bar 0");
    row("lateness p50", `${Math.round(lateness.p50!)} ms`);
    row(
      "lateness p99",
      `${Math.round(lateness.p99!)} ms`,
      `bar ${BAR_P99_MS} ms ${lateness.p99! <= BAR_P99_MS ? "ok" : "OVER"}`,
    );
    row("lateness min / max", `${Math.round(lateness.min!)} / ${Math.round(lateness.max!)} ms`);
    row("jobs retried (lease ran out or failed)", String(retried));
    if (process.env.BENCH_DETAIL === "1") {
      const buckets = await db.query(`
        SELECT extract(epoch FROM due) * 1000 AS due, extract(epoch FROM fired_at - due) * 1000 AS ms
        FROM (SELECT substring(key FROM '\\d{4}-\\d\\d-\\d\\dT[^Z]*Z$')::timestamptz AS due, fired_at FROM alert_firings) f`);
      const first = Math.min(...buckets.rows.map((r: { due: number }) => Number(r.due)));
      const by = new Map<number, number[]>();
      for (const r of buckets.rows as { due: number; ms: number }[]) {
        const second = Math.floor((Number(r.due) - first) / 5000) * 5;
        const list = by.get(second) ?? [];
        list.push(Number(r.ms));
        by.set(second, list);
      }
      for (const [second, list] of [...by].sort((a, b) => a[0] - b[0])) {
        list.sort((a, b) => a - b);
        row(
          `  due at +${second} s: n, p50, max`,
          `${list.length}`,
          `${Math.round(list[Math.floor(list.length / 2)]!)} / ${Math.round(list.at(-1)!)} ms`,
        );
      }
    }
    row("database commits per reminder", (d("commits") / TOTAL).toFixed(1));
    row(
      "database rows written per reminder",
      ((d("inserted") + d("updated") + d("deleted")) / TOTAL).toFixed(1),
    );
    row("database commits per second (window)", (d("commits") / window).toFixed(0));
    row("server CPU seconds (per instance)", cpu.map((c) => c.toFixed(1)).join(" / "));
  } finally {
    await db.end().catch(() => {});
    for (const server of servers) await stopServer(server).catch(() => {});
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
