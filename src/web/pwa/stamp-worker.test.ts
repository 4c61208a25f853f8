import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { shellOf, stampWorker } from "./build/stamp-worker.mjs";
import { WORKER_FILE, workerSandbox } from "./worker-sandbox";

/** The build's step that tells the service worker its version and app shell. */

const INDEX = `<!doctype html><html><head>
<link rel="manifest" href="/manifest.webmanifest" />
<link rel="icon" href="/icons/icon.svg" type="image/svg+xml" />
<script src="/early-bootstrap.js" async></script>
<script type="module" crossorigin src="/assets/index-A1.js"></script>
<link rel="modulepreload" crossorigin href="/assets/react-B2.js">
<link rel="stylesheet" crossorigin href="/assets/index-C3.css">
<link rel="preconnect" href="//cdn.example">
</head><body><div id="root"></div></body></html>`;

const FILES = [
  "index.html",
  "early-bootstrap.js",
  "manifest.webmanifest",
  "icons/icon.svg",
  "icons/icon-192.png",
  "assets/index-A1.js",
  "assets/react-B2.js",
  "assets/index-C3.css",
  "assets/View-D4.js",
  "assets/emoji-E5.woff2",
  "assets/twemoji-F6.woff2",
];
const SIZES: Record<string, number> = { "assets/twemoji-F6.woff2": 476_456, "assets/emoji-E5.woff2": 20_928 };

let dist = "";
afterEach(() => {
  if (dist) rmSync(dist, { recursive: true, force: true });
});

function builtApp(changed = "") {
  dist = mkdtempSync(path.join(tmpdir(), "tessera-stamp-"));
  for (const file of FILES) {
    mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
    writeFileSync(path.join(dist, file), file === "index.html" ? INDEX : `${file}${changed}`);
  }
  copyFileSync(WORKER_FILE, path.join(dist, "sw.js"));
  return dist;
}

describe("stamping the service worker", () => {
  it("lists index.html, what it loads first, the manifest, icons and small fonts; not lazy chunks", () => {
    const files = FILES.map((file) => ({ file, bytes: SIZES[file] ?? 1_000 }));
    expect(shellOf(INDEX, files)).toEqual([
      "/",
      "/manifest.webmanifest",
      "/icons/icon.svg",
      "/early-bootstrap.js",
      "/assets/index-A1.js",
      "/assets/react-B2.js",
      "/assets/index-C3.css",
      "/icons/icon-192.png",
      "/assets/emoji-E5.woff2",
    ]);
  });

  it("writes the version and shell into the built worker and its precompressed copies", () => {
    const build = stampWorker(builtApp());
    const stamped = readFileSync(path.join(dist, "sw.js"), "utf8");
    expect(stamped).toContain(`const BUILD = ${JSON.stringify(build)};`);
    expect(brotliDecompressSync(readFileSync(path.join(dist, "sw.js.br"))).toString()).toBe(stamped);
    expect(gunzipSync(readFileSync(path.join(dist, "sw.js.gz"))).toString()).toBe(stamped);
    // The stamped worker runs, with its caches named by the version.
    expect(workerSandbox(stamped).global("SHELL_CACHE")).toBe(`tessera-shell-${build.version}`);
  });

  it("makes a new version for any change to the build, and the same one for the same build", () => {
    const first = stampWorker(builtApp()).version;
    rmSync(dist, { recursive: true });
    expect(stampWorker(builtApp()).version).toBe(first);
    rmSync(dist, { recursive: true });
    expect(stampWorker(builtApp("changed")).version).not.toBe(first);
  });

  it("fails the build when the worker has no line to stamp", () => {
    builtApp();
    writeFileSync(path.join(dist, "sw.js"), "self.addEventListener('push', () => {});");
    expect(() => stampWorker(dist)).toThrow(/no line to stamp/);
  });
});
