/**
 * A/B of the start command's memory settings under load: the same embedded server started as
 * `npm start` does, with parts of its settings, and with GC variants, interleaved, on a 20-widget
 * dashboard and a 200-dashboard list (50 connections). Prints medians and the ratios.
 *
 *   npx tsx bench/ab-start.ts      (AB_ROUNDS=3 AB_SECONDS=5)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { build, isStale } from "../scripts/build.mjs";
import { median } from "./support/processes.js";
import { addWidgets, call, pool } from "./support/seed.js";
import { type StartCommand, startCommand, startServer, stopServer } from "./support/server.js";
import { signUpOverHttp } from "./support/sign-up.js";

const ROUNDS = Number(process.env.AB_ROUNDS ?? 3);
const SECONDS = Number(process.env.AB_SECONDS ?? 5);
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
  { label: "semi-space + optimize-for-size", command: { env: {}, flags: startCommand().flags } },
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
const servers = [];
const urls: { widgets: string; dashboards: string; cookie: string }[] = [];
try {
  for (const [i, shape] of SHAPES.entries()) {
    const server = await startServer(
      { ...SECRETS, DATA_DIR: dirs[i]!, WEB_DIST: "/nonexistent" },
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
  for (const [i, shape] of SHAPES.entries())
    console.log(
      `${shape.label.padEnd(32)} widgets(20) ${median(results[i]!.widgets).toFixed(0)} req/s, dashboards(200) ${median(results[i]!.dashboards).toFixed(0)} req/s`,
    );
  for (const kind of ["widgets", "dashboards"] as const)
    for (const [i, shape] of SHAPES.entries())
      console.log(
        `${kind}: ${shape.label} / semi-space only = ${(median(results[i]![kind]) / median(results[1]![kind])).toFixed(2)}`,
      );
} finally {
  for (const server of servers) await stopServer(server);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
