import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Run from TypeScript sources (tests, `npm run dev`), the database thread gets its entry bundled
 * by esbuild into node_modules/.cache, the way `npm run build` bundles it into dist/server: a
 * thread that loaded TypeScript through a loader hook would spend seconds on it at every start.
 * Packages stay external and resolve from node_modules as usual.
 */
export function bundledWorkerEntry(entry: URL): URL {
  const require = createRequire(import.meta.url);
  const esbuild = require("esbuild") as typeof import("esbuild");
  const { outputFiles } = esbuild.buildSync({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
  });
  const code = outputFiles[0]!.text;
  const cacheDir = path.join(
    path.dirname(require.resolve("esbuild/package.json")),
    "..",
    ".cache",
    "tessera",
  );
  const file = path.join(
    cacheDir,
    `pglite-worker-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`,
  );
  if (!existsSync(file)) {
    mkdirSync(cacheDir, { recursive: true });
    // Written aside and renamed, so parallel test processes never run a half-written file.
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  }
  return new URL(`file://${file}`);
}
