import { spawn } from "node:child_process";
import { existsSync, readdirSync, renameSync, rmdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isInitialised, isMemory } from "./engine.js";

/**
 * Creates the embedded database directory in a short-lived child process: PGlite's initdb grows
 * its WASM memory to several hundred MiB and WASM memory never shrinks, so the server itself must
 * only ever open an initialised directory. The child works in a staging directory that is renamed
 * into place once initdb and the migrations have finished, so an interrupted first start leaves
 * nothing half-made behind.
 */
export async function initialiseDataDir(dir: string, migrationsFolder: string, tuned: boolean) {
  if (isMemory(dir) || isInitialised(dir)) return;
  if (existsSync(dir)) {
    if (readdirSync(dir).length > 0)
      throw new Error(`${dir} exists but holds no database; move it away or empty it`);
    rmdirSync(dir);
  }
  const staging = `${dir}.initialising`;
  rmSync(staging, { recursive: true, force: true });

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
  renameSync(staging, dir);
}
