// Writes the build's version and app-shell list into the built service worker (dist/web/sw.js,
// copied from src/web/public/sw.js by Vite), then its precompressed copies again. Called by
// scripts/build.mjs after the web build. The version is a digest of every built file, so any
// change to the app is a new worker, and its activation drops the previous build's cache.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const WORKER = "sw.js";
/** The line of src/web/public/sw.js this replaces. */
const PLACEHOLDER = 'const BUILD = { version: "dev", shell: [] }; // stamped by the build';

/** Paths relative to `dir`, with "/" separators, of every file under it. */
function filesUnder(dir, prefix = "") {
  return readdirSync(path.join(dir, prefix)).flatMap((name) => {
    const relative = prefix ? `${prefix}/${name}` : name;
    return statSync(path.join(dir, relative)).isDirectory() ? filesUnder(dir, relative) : [relative];
  });
}

/** The build's own files: not the precompressed twins (same content) and not the worker itself. */
function builtFiles(dist) {
  return filesUnder(dist)
    .filter((file) => !/\.(br|gz)$/.test(file) && file !== WORKER)
    .sort();
}

/** A larger font is not part of the shell: the full emoji font the app loads only when needed. */
const SHELL_FONT_MAX_BYTES = 64 * 1024;

/**
 * What the worker caches at install: index.html (as "/", the shell every navigation falls back to),
 * what it loads before the app runs (entry script, styles, preloaded modules, early-bootstrap.js),
 * the manifest and icons, and the small fonts (the emoji slices most text with an emoji needs).
 * Lazy chunks and the full emoji font are cached when a page loads them. `files` are the build's
 * files with their sizes.
 */
export function shellOf(indexHtml, files) {
  const paths = files.map((f) => f.file);
  const fromHtml = [...indexHtml.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="(\/[^"]+)"/g)].map(
    (match) => match[1],
  );
  const local = fromHtml.filter((href) => !href.startsWith("//") && paths.includes(href.slice(1)));
  const extra = files
    .filter(
      ({ file, bytes }) =>
        /^(icons\/|manifest\.webmanifest$)/.test(file) ||
        (/^assets\/.*\.woff2$/.test(file) && bytes <= SHELL_FONT_MAX_BYTES),
    )
    .map(({ file }) => `/${file}`);
  return ["/", ...new Set([...local, ...extra])];
}

/** A digest of the build's files, names and contents. */
export function versionOf(dist, files) {
  const hash = createHash("sha256");
  for (const file of files)
    hash
      .update(file)
      .update("\0")
      .update(readFileSync(path.join(dist, file)));
  return hash.digest("hex").slice(0, 16);
}

export function stampWorker(dist) {
  const workerPath = path.join(dist, WORKER);
  const source = readFileSync(workerPath, "utf8");
  if (!source.includes(PLACEHOLDER))
    throw new Error(`${workerPath} has no line to stamp (expected: ${PLACEHOLDER})`);
  const files = builtFiles(dist);
  const sized = files.map((file) => ({ file, bytes: statSync(path.join(dist, file)).size }));
  const build = {
    version: versionOf(dist, files),
    shell: shellOf(readFileSync(path.join(dist, "index.html"), "utf8"), sized),
  };
  const stamped = Buffer.from(source.replace(PLACEHOLDER, `const BUILD = ${JSON.stringify(build)};`));
  writeFileSync(workerPath, stamped);
  // The same levels as the build's precompression (vite.config.ts): the server sends these.
  writeFileSync(
    `${workerPath}.br`,
    brotliCompressSync(stamped, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: stamped.length,
      },
    }),
  );
  writeFileSync(`${workerPath}.gz`, gzipSync(stamped, { level: 9 }));
  return build;
}
