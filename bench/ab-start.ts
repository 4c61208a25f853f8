/**
 * A/B of the start command's memory settings under load: the same server started as `npm start`
 * does, with parts of its settings, and with GC variants, interleaved, on a 20-widget dashboard
 * and a 200-dashboard list (50 connections). Prints medians, the ratios, and each server's RSS
 * AB_IDLE_SECONDS after the load (what the settings keep once the burst is over).
 *
 *   npx tsx bench/ab-start.ts                  embedded (AB_ROUNDS=3 AB_SECONDS=5 AB_IDLE_SECONDS=20)
 *   AB_MODE=postgres npx tsx bench/ab-start.ts each shape on its own PostgreSQL database
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { build, isStale } from "../scripts/build.mjs";
import { createPostgresDatabase } from "../test/support/services.js";
import { median } from "./support/processes.js";
import { addWidgets, call, pool } from "./support/seed.js";
import { rssMiB, type StartCommand, startCommand, startServer, stopServer } from "./support/server.js";
import { signUpOverHttp } from "./support/sign-up.js";

const ROUNDS = Number(process.env.AB_ROUNDS ?? 3);
const SECONDS = Number(process.env.AB_SECONDS ?? 5);
const IDLE_SECONDS = Number(process.env.AB_IDLE_SECONDS ?? 20);
const POSTGRES = process.env.AB_MODE === "postgres";
const SECRETS = {
  AUTH_SECRET: "bench-secret-bench-secret-bench-secret-42",
  TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64"),
};
const SHAPES: { label: string; command: StartCommand }[] = [
  { label: "npm start (default)", command: startCommand() },
  { label: "--max-semi-space-size=2 only", command: { env: {}, flags: ["--max-semi-space-size=2"] } },
  {
    label: "semi-space + malloc settings",
    command: { env: startCommand().env, flags: ["--max-semi-space-size=2"] },
  },
  // The default until 2026-11-27: V8 keeps its heaps small, at the price of a full GC every few
  // hundred milliseconds under load.
  {
    label: "npm start + --optimize-for-size",
    command: { env: startCommand().env, flags: [...startCommand().flags, "--optimize-for-size"] },
  },
  // On two cores the parallel scavenger's helper threads compete with the server and the database.
  {
    label: "npm start + --single-threaded-gc",
    command: { env: startCommand().env, flags: [...startCommand().flags, "--single-threaded-gc"] },
  },
  {
    label: "npm start, V8's own semi-space",
    command: {
      env: startCommand().env,
      flags: startCommand().flags.filter((f) => !f.startsWith("--max-semi-space-size")),
    },
  },
];

if (isStale("server")) await build(["server"]);
const dirs = SHAPES.map(() => mkdtempSync(path.join(tmpdir(), "tessera-ab-")));
const databases = POSTGRES ? await Promise.all(SHAPES.map(() => createPostgresDatabase())) : [];
const servers = [];
const urls: { widgets: string; dashboards: string; cookie: string }[] = [];
try {
  for (const [i, shape] of SHAPES.entries()) {
    const server = await startServer(
      {
        ...SECRETS,
        WEB_DIST: "/nonexistent",
        ...(POSTGRES ? { DATABASE_URL: databases[i]!.url } : { DATA_DIR: dirs[i]! }),
      },
      shape.command,
    );
    servers.push(server);
    const { cookie } = await signUpOverHttp(server.base, "ab");
    const session = { base: server.base, cookie };
    const home = await call(session, "POST", "/api/dashboards", { name: "Home" });
    await addWidgets(session, home.id, 20);
    await pool(199, 8, async (d) => {
      await call(session, "POST", "/api/dashboards", { name: `D${d}` });
    });
    urls.push({
      widgets: `${server.base}/api/widgets?dashboardId=${home.id}`,
      dashboards: `${server.base}/api/dashboards`,
      cookie,
    });
  }
  const results = SHAPES.map(() => ({ widgets: [] as number[], dashboards: [] as number[] }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i] of SHAPES.entries()) {
      for (const kind of ["widgets", "dashboards"] as const) {
        const r = await autocannon({
          url: urls[i]![kind],
          connections: 50,
          duration: SECONDS,
          headers: { cookie: urls[i]!.cookie },
        });
        if (r.non2xx || r.errors) throw new Error(`${kind}: ${r.non2xx} non-2xx, ${r.errors} errors`);
        results[i]![kind].push(r.requests.average);
      }
    }
  }
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  const idle = servers.map((server) => rssMiB(server.child.pid!));
  console.log(`${POSTGRES ? "PostgreSQL" : "embedded"}, ${ROUNDS} rounds of ${SECONDS} s:`);
  for (const [i, shape] of SHAPES.entries())
    console.log(
      `${shape.label.padEnd(32)} widgets(20) ${median(results[i]!.widgets).toFixed(0)} req/s, dashboards(200) ${median(results[i]!.dashboards).toFixed(0)} req/s, RSS ${IDLE_SECONDS} s after the load ${idle[i]!.toFixed(0)} MiB`,
    );
  for (const kind of ["widgets", "dashboards"] as const)
    for (const [i, shape] of SHAPES.entries())
      console.log(
        `${kind}: ${shape.label} / semi-space only = ${(median(results[i]![kind]) / median(results[1]![kind])).toFixed(2)}`,
      );
} finally {
  for (const server of servers) await stopServer(server);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  for (const database of databases) await database.drop();
}
