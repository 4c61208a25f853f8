import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isInitialised, isMemory } from "./engine.js";

/** The build's initialised database (scripts/build.mjs), beside the compiled server's code. */
export const DATA_TEMPLATE = "data-template.tgz";

/** How a first start created the database, or null when it was there already. */
export type Created = { from: "template" | "initdb"; ms: number } | null;

/**
 * Creates the embedded database directory, from the build's template when there is one (a copy
 * and the server's usual migrations at start: ~0.3 s instead of initdb's 6-14 s, issue 36),
 * otherwise (running from source) in a short-lived child process: PGlite's initdb grows
 * its WASM memory to several hundred MiB and WASM memory never shrinks, so the server itself must
 * only ever open an initialised directory. The child works in a staging directory that is renamed
 * into place once initdb and the migrations have finished, so an interrupted first start leaves
 * nothing half-made behind.
 */
export async function initialiseDataDir(
  dir: string,
  migrationsFolder: string,
  tuned: boolean,
  template = templateBesideCode(),
): Promise<Created> {
  if (isMemory(dir) || isInitialised(dir)) return null;
  if (existsSync(dir)) {
    if (readdirSync(dir).length > 0)
      throw new Error(`${dir} exists but holds no database; move it away or empty it`);
    rmdirSync(dir);
  }
  const started = performance.now();
  const staging = `${dir}.initialising`;
  rmSync(staging, { recursive: true, force: true });
  // The template carries the household settings: a run with PGlite's stock ones makes its own.
  if (template && tuned) {
    mkdirSync(staging, { recursive: true });
    // Loaded only here: a restart does not pay for the archive reader.
    const { extract } = await import("tar");
    await extract({ file: template, cwd: staging });
    renameSync(staging, dir);
    return { from: "template", ms: performance.now() - started };
  }
  await runInitdb(staging, migrationsFolder, tuned);
  renameSync(staging, dir);
  return { from: "initdb", ms: performance.now() - started };
}

/** The template of the compiled server, when it was built with one. */
function templateBesideCode(): string | null {
  if (!import.meta.url.endsWith(".js")) return null;
  const file = fileURLToPath(new URL(`./${DATA_TEMPLATE}`, import.meta.url));
  return existsSync(file) ? file : null;
}

/** initdb and the migrations into `staging`, in a child process (the build's template is made the same way). */
async function runInitdb(staging: string, migrationsFolder: string, tuned: boolean) {
  const here = import.meta.url;
  const fromSource = !here.endsWith(".js");
  const entry = fileURLToPath(new URL(fromSource ? "./init-entry.ts" : "./pglite-init.js", here));
  const args = [
    ...(fromSource ? ["--import", "tsx"] : []),
    entry,
    staging,
    migrationsFolder,
    tuned ? "1" : "0",
  ];
  // Not the server's allocator settings (npm start's GLIBC_TUNABLES): they suit a long idle life,
  // and make initdb's burst of large allocations each a mapping of its own (14.4 s instead of 5.9 s
  // on the 2-core machine, issue 36).
  const { GLIBC_TUNABLES: _serverOnly, ...env } = process.env;
  const child = spawn(process.execPath, args, { stdio: ["ignore", "inherit", "inherit"], env });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", resolve);
  });
  if (code !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`initialising the embedded database failed (exit ${code})`);
  }
}
