import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium } from "playwright-core";
import { type BuiltApp, buildApp } from "../../src/server/app.js";
import type { Config } from "../../src/server/config.js";
import type { Clock } from "../../src/server/upstream/cache.js";
import { testConfig } from "../../test/support/config.js";
import { freePort } from "../../test/support/ports.js";

export { freePort };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Builds the web app with the project's own Vite config into a private directory. */
export function buildWeb(): { dist: string; output: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), "tessera-e2e-web-"));
  const dist = path.join(dir, "web");
  const result = spawnSync(
    process.execPath,
    [
      path.join(root, "node_modules/vite/bin/vite.js"),
      "build",
      "--outDir",
      dist,
      "--emptyOutDir",
      "--logLevel",
      "warn",
    ],
    { cwd: root, encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } },
  );
  if (result.status !== 0) throw new Error(`vite build failed:\n${result.stdout}\n${result.stderr}`);
  return { dist, output: result.stdout, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The real server (embedded PGlite, in memory) serving the built app on a local port: a free one,
 * or the given one when the caller had to know the address first (OAuth redirect URIs, say).
 */
export async function startServer(
  dist: string,
  options: { port?: number; config?: Partial<Config>; clock?: Clock } = {},
): Promise<{ built: BuiltApp; baseUrl: string }> {
  const port = options.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const built = await buildApp(
    testConfig({ ...options.config, webDist: dist, baseUrl, port, host: "127.0.0.1" }),
    { clock: options.clock },
  );
  await built.app.listen({ port, host: "127.0.0.1" });
  return { built, baseUrl };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
}

/** A clock for the server's upstream cache that a test moves forward instead of waiting. */
export function testClock() {
  let offset = 0;
  return {
    now: (): number => Date.now() + offset,
    advance(ms: number) {
      offset += ms;
    },
  };
}
