// Prints the built web app's asset sizes (raw and gzipped) and checks the budget: the JavaScript a
// browser must load before the dashboard route can run (the entry script and every module it
// preloads) stays within 250 KB gzipped. Lazy chunks (settings, Markdown preview) do not count.
// Usage: node scripts/bundle-size.mjs [dist dir]   (exit code 1 when over budget)
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

export const INITIAL_JS_BUDGET = 250 * 1024;

function gzipSize(file) {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

/** @param {string} dist */
export function measureBundle(dist) {
  const html = readFileSync(path.join(dist, "index.html"), "utf8");
  const initial = new Set();
  for (const match of html.matchAll(/<script[^>]+type="module"[^>]+src="\/?([^"]+)"/g)) initial.add(match[1]);
  for (const match of html.matchAll(/<link[^>]+rel="(?:modulepreload|stylesheet)"[^>]+href="\/?([^"]+)"/g))
    initial.add(match[1]);
  if (initial.size === 0) throw new Error(`no entry script found in ${dist}/index.html`);

  // The .br/.gz siblings are the same files precompressed for the server, not more assets.
  const names = readdirSync(path.join(dist, "assets")).filter((name) => !/\.(br|gz)$/.test(name));
  const assets = names.map((name) => {
    const file = path.join(dist, "assets", name);
    const relative = `assets/${name}`;
    return {
      file: relative,
      bytes: statSync(file).size,
      gzip: gzipSize(file),
      initial: initial.has(relative),
    };
  });
  assets.sort((a, b) => b.gzip - a.gzip);
  const initialJs = assets.filter((a) => a.initial && a.file.endsWith(".js"));
  const initialJsGzip = initialJs.reduce((sum, a) => sum + a.gzip, 0);
  const css = assets.filter((a) => a.file.endsWith(".css"));
  return {
    assets,
    initialJsGzip,
    initialJsBytes: initialJs.reduce((sum, a) => sum + a.bytes, 0),
    cssGzip: css.reduce((sum, a) => sum + a.gzip, 0),
    totalGzip: assets.reduce((sum, a) => sum + a.gzip, 0),
    budget: INITIAL_JS_BUDGET,
  };
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** @param {ReturnType<typeof measureBundle>} report */
export function formatReport(report) {
  const lines = ["Web bundle (gzip level 9):"];
  for (const a of report.assets) {
    lines.push(
      `  ${a.file.padEnd(44)} ${kb(a.bytes).padStart(10)}  gzip ${kb(a.gzip).padStart(9)}${a.initial ? "  initial" : "  lazy"}`,
    );
  }
  lines.push(
    `  dashboard route initial JS: ${kb(report.initialJsGzip)} gzipped (${kb(report.initialJsBytes)} raw); budget ${kb(report.budget)}`,
    `  CSS: ${kb(report.cssGzip)} gzipped; everything: ${kb(report.totalGzip)} gzipped`,
  );
  return lines.join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const dist = path.resolve(process.argv[2] ?? path.join(root, "dist/web"));
  const report = measureBundle(dist);
  console.log(formatReport(report));
  if (report.initialJsGzip > report.budget) {
    console.error(
      `Over budget: initial JS is ${kb(report.initialJsGzip)} gzipped, the budget is ${kb(report.budget)}`,
    );
    process.exit(1);
  }
}
