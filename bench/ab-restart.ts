/**
 * A/B of what a restart costs under each allocator setting: the embedded server, started as
 * `npm start` does but with `GLIBC_TUNABLES` replaced, restarted alone (no other server running),
 * interleaved; then its RSS 20 s after the restart, the idle figure of bench:lean.
 *
 *   npx tsx bench/ab-restart.ts
 *   AB_VARIANTS="glibc.malloc.trim_threshold=16384|none" AB_RESTARTS=6 AB_IDLE_RESTARTS=3 npx tsx bench/ab-restart.ts
 *
 * AB_VARIANTS: `|`-separated GLIBC_TUNABLES values ("none" for glibc's own); the default compares
 * `npm start`'s with the ones measured in the README. AB_FLAGS replaces the Node flags.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build, isStale } from "../scripts/build.mjs";
import { median } from "./support/processes.js";
import { addWidgets, call } from "./support/seed.js";
import { rssMiB, type StartCommand, startCommand, startServer, stopServer } from "./support/server.js";
import { signUpOverHttp } from "./support/sign-up.js";

const SECRETS = {
  AUTH_SECRET: "bench-secret-bench-secret-bench-secret-42",
  TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64"),
};
const IDLE_SECONDS = 20;
const START = startCommand();
const VARIANTS = (
  process.env.AB_VARIANTS ??
  [
    START.env.GLIBC_TUNABLES,
    "glibc.malloc.trim_threshold=16384",
    "glibc.malloc.mmap_threshold=40960:glibc.malloc.trim_threshold=16384",
    "none",
  ].join("|")
).split("|");
const FLAGS = process.env.AB_FLAGS?.split(" ").filter(Boolean) ?? START.flags;
const RESTARTS = Number(process.env.AB_RESTARTS ?? 5);
const IDLE_RESTARTS = Number(process.env.AB_IDLE_RESTARTS ?? 2);

const command = (variant: string): StartCommand => ({
  env: variant === "none" ? {} : { GLIBC_TUNABLES: variant },
  flags: FLAGS,
});
const start = (variant: string, dir: string) =>
  startServer({ ...SECRETS, DATA_DIR: dir, WEB_DIST: "/nonexistent" }, command(variant));

if (isStale("server")) await build(["server"]);
const dirs = VARIANTS.map(() => mkdtempSync(path.join(tmpdir(), "tessera-ab-restart-")));
try {
  // First starts (initdb) and some data, as bench:lean restarts with.
  for (const [i, variant] of VARIANTS.entries()) {
    const server = await start(variant, dirs[i]!);
    const { cookie } = await signUpOverHttp(server.base, "restart");
    const session = { base: server.base, cookie };
    await addWidgets(session, (await call(session, "POST", "/api/dashboards", { name: "Home" })).id, 20);
    await stopServer(server);
  }
  const restarts = VARIANTS.map(() => [] as number[]);
  const idle = VARIANTS.map(() => [] as number[]);
  for (let round = 0; round < RESTARTS; round++)
    for (const [i, variant] of VARIANTS.entries()) {
      const server = await start(variant, dirs[i]!);
      restarts[i]!.push(server.readyMs);
      if (round < IDLE_RESTARTS) {
        await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
        idle[i]!.push(rssMiB(server.child.pid!));
      }
      await stopServer(server);
    }
  console.log(`node ${FLAGS.join(" ")}; ${RESTARTS} restarts each, interleaved, each alone`);
  for (const [i, variant] of VARIANTS.entries())
    console.log(
      `restart ${median(restarts[i]!).toFixed(0)} ms [${restarts[i]!.map((t) => t.toFixed(0)).join(", ")}], idle ${IDLE_SECONDS} s after ${idle[i]!.map((v) => v.toFixed(0)).join("/")} MiB: ${variant}`,
    );
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
