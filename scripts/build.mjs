// The production build: the web app (Vite, precompressed by the plugin in vite.config.ts) into
// dist/web and the server (esbuild: our code and most packages bundled) into
// dist/server. `npm start` calls the parts that are stale; `npm run build` builds both.
// Usage: node scripts/build.mjs [web|server]...
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stampWorker } from "../src/web/pwa/build/stamp-worker.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * What each part is built from, the folder it is built into (under a dist root: `dist/` for
 * `npm start`, a cache folder for the test suite) and the file whose age says when it was last built.
 */
export const PARTS = {
  web: {
    inputs: [
      "src/web",
      "src/widgets",
      "src/integrations",
      "src/contract",
      "vite.config.ts",
      "package-lock.json",
    ],
    folder: "web",
    output: "index.html",
  },
  server: {
    inputs: [
      "src/server",
      "src/widgets",
      "src/integrations",
      "src/contract",
      "drizzle",
      "scripts/build.mjs",
      "package-lock.json",
    ],
    folder: "server",
    output: "main.js",
  },
};

export const DIST = path.join(ROOT, "dist");

/** The server's entry points: the process, the embedded database's thread and its init process. */
const SERVER_ENTRIES = {
  main: "src/server/main.ts",
  backup: "src/server/backup/cli.ts",
  "pglite-worker": "src/server/db/embedded/worker.ts",
  "pglite-init": "src/server/db/embedded/init-entry.ts",
};

function newest(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(target)) latest = Math.max(latest, newest(path.join(target, entry)));
  return latest;
}

/** True when the part was never built into `dist` or a source changed since. */
export function isStale(part, dist = DIST) {
  const { inputs, folder, output } = PARTS[part];
  const built = path.join(dist, folder, output);
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return inputs.some((input) => newest(path.join(ROOT, input)) > builtAt);
}

/** The web app with the project's own Vite config (production mode), into `outdir`. */
export function buildWeb(outdir = path.join(DIST, "web"), { quiet = false } = {}) {
  const vite = path.join(ROOT, "node_modules/vite/bin/vite.js");
  const args = [vite, "build", "--outDir", outdir, "--emptyOutDir", ...(quiet ? ["--logLevel", "warn"] : [])];
  const result = spawnSync(process.execPath, args, {
    cwd: ROOT,
    stdio: quiet ? "pipe" : "inherit",
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0)
    throw new Error(`the web build failed\n${result.stdout ?? ""}${result.stderr ?? ""}`);
  // The service worker learns the build's version and app shell (src/web/pwa/build/stamp-worker.mjs).
  stampWorker(outdir);
}

/**
 * Packages that stay in node_modules: they read files next to their own code (PGlite's WASM,
 * swagger-ui's assets, swagger's and ioredis's __dirname), are optional or native (pg-native,
 * esbuild), or start threads from their own files (pino). @fastify/static too: swagger-ui loads
 * it from node_modules anyway, and a second, bundled copy (with glob) cost ~55 ms of every start.
 */
const EXTERNAL = [
  "@electric-sql/pglite",
  "@fastify/static",
  "@fastify/swagger",
  "@fastify/swagger-ui",
  "esbuild",
  "ioredis",
  "pg-native",
  // A native binding: its platform package is picked when it loads.
  "@node-rs/argon2",
  "pino",
  "thread-stream",
];

/**
 * The server and the rest of its packages in a few files: loading them is most of a restart, and
 * one bundle skips thousands of file lookups (restart ~0.9 s instead of ~1.4 s on the bench).
 * Answers esbuild's metafile: what each output file holds and imports.
 */
export async function buildServer(outdir = path.join(DIST, "server")) {
  const esbuild = await import("esbuild");
  rmSync(outdir, { recursive: true, force: true });
  const { metafile } = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: SERVER_ENTRIES,
    outdir,
    bundle: true,
    external: EXTERNAL,
    platform: "node",
    format: "esm",
    target: "node20",
    // Shared code goes to chunks, so main.js can start the database before the app's modules load;
    // beside the entries, since the worker and init files are found relative to the code that starts them.
    splitting: true,
    chunkNames: "[name]-[hash]",
    // Bundled CommonJS packages call require() for Node's own modules.
    banner: {
      js: 'import { createRequire as __tesseraRequire } from "node:module"; const require = __tesseraRequire(import.meta.url);',
    },
    // Smaller source to parse and keep; names stay readable in stack traces.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: "linked",
    logLevel: "warning",
    metafile: true,
  });
  await buildDataTemplate(outdir);
  return metafile;
}

/** The file name src/server/db/embedded/init.ts looks for beside the compiled server. */
const DATA_TEMPLATE = "data-template.tgz";

/**
 * The embedded database as a first start would create it (initdb and the migrations, by the
 * compiled init process), archived beside the server: a first start unpacks it instead of
 * running initdb (issue 36). PGlite's data directory is plain files; its 16 MiB WAL segment is
 * mostly zeros, so the 40 MiB directory packs into ~5 MiB.
 */
export async function buildDataTemplate(serverDir) {
  const staging = path.join(serverDir, "data-template.staging");
  rmSync(staging, { recursive: true, force: true });
  // Without npm start's allocator settings: they make initdb 2.4x slower (init.ts).
  const { GLIBC_TUNABLES: _serverOnly, ...env } = process.env;
  const init = spawnSync(
    process.execPath,
    [path.join(serverDir, "pglite-init.js"), staging, path.join(ROOT, "drizzle"), "1"],
    { stdio: "inherit", env },
  );
  if (init.status !== 0) throw new Error(`initialising the data template failed (exit ${init.status})`);
  const { create } = await import("tar");
  const partial = path.join(serverDir, `${DATA_TEMPLATE}.partial`);
  await create({ gzip: { level: 9 }, file: partial, cwd: staging, portable: true }, ["."]);
  renameSync(partial, path.join(serverDir, DATA_TEMPLATE));
  rmSync(staging, { recursive: true, force: true });
}

/** Builds `parts` into `dist` (default: the `dist/` that `npm start` runs). */
export async function build(parts, { dist = DIST, quiet = false } = {}) {
  for (const part of parts) {
    const started = Date.now();
    const outdir = path.join(dist, PARTS[part]?.folder ?? part);
    if (part === "web") buildWeb(outdir, { quiet });
    else if (part === "server") await buildServer(outdir);
    else throw new Error(`unknown part ${part}`);
    if (!quiet) console.log(`built ${part} in ${Date.now() - started} ms`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const parts = process.argv.slice(2);
  await build(parts.length ? parts : ["web", "server"]);
}
