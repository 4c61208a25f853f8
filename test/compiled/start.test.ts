import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Metafile } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startCommand } from "../../scripts/start-command.mjs";
import { type Compiled, type CompiledServer, compiled, startCompiledServer } from "../support/compiled.js";

/**
 * What a start loads before it answers: the output file of `entry` and every file it imports
 * statically, with the sources bundled in them and the packages left in node_modules. Dynamic
 * imports load later: in their run mode, or with the first request that needs them.
 */
function loadedAtStart(metafile: Metafile, entry: string) {
  const outputs = Object.entries(metafile.outputs);
  const first = outputs.find(([, output]) => output.entryPoint === entry)?.[0];
  if (!first) throw new Error(`no output for ${entry}`);
  const files = new Set<string>();
  const sources = new Set<string>();
  const packages = new Set<string>();
  const queue = [first];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    const output = metafile.outputs[file]!;
    for (const source of Object.keys(output.inputs)) sources.add(source);
    for (const imported of output.imports) {
      if (imported.kind !== "import-statement") continue;
      if (imported.external) packages.add(imported.path);
      else queue.push(imported.path);
    }
  }
  return { sources: [...sources], packages: [...packages] };
}

// The server as `npm start` and the container run it: bundled by scripts/build.mjs, started with
// node on a fresh DATA_DIR (its first start: the database is created, then migrated).
const METRICS_TOKEN = "compiled-metrics-token-0123456789";

describe("the compiled server", () => {
  let server: CompiledServer;
  let base: string;
  let metafile: Metafile;
  let artifact: Compiled;
  // Kept past the stop: the export reads it afterwards.
  const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-compiled-"));
  const out = mkdtempSync(path.join(tmpdir(), "tessera-exported-"));

  beforeAll(async () => {
    artifact = await compiled();
    metafile = JSON.parse(readFileSync(path.join(artifact.server, "metafile.json"), "utf8"));
    server = await startCompiledServer({
      server: artifact.server,
      dataDir,
      // debug: main.ts says at that level when its warm-up after listening has finished.
      env: { WEB_DIST: "/nonexistent", METRICS_TOKEN, LOG_LEVEL: "debug" },
    });
    base = server.baseUrl;
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  });

  it("starts without the drivers of the other modes and the parsers of later requests", () => {
    const bundledPackage = (name: string) => (source: string) => source.includes(`node_modules/${name}/`);
    // Each of these cost 30-120 ms of a restart (README, Performance); they load when needed.
    const later = [
      "pg",
      "pg-pool",
      "undici",
      "sanitize-html",
      "postcss",
      "@rowanmanning/feed-parser",
      "tar",
      "prom-client",
    ];
    const main = loadedAtStart(metafile, "src/server/main.ts");
    for (const name of later) expect(main.sources.filter(bundledPackage(name)), name).toEqual([]);
    expect(main.packages).not.toContain("ioredis");
    // PGlite's JavaScript: the database thread loads it; the server only once that thread has started.
    expect(main.packages).not.toContain("@electric-sql/pglite");
    // They are in the build, as chunks loaded on demand: the check above looks where they would be.
    const everything = Object.values(metafile.outputs).flatMap((output) => Object.keys(output.inputs));
    for (const name of later) expect(everything.some(bundledPackage(name)), name).toBe(true);
  });

  it("serves Prometheus metrics to the token, from the bundled prom-client", async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    await fetch(`${base}/healthz`);
    const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(
      /^http_request_duration_seconds_count\{method="GET",route="\/healthz",status_code="200"\} \d+$/m,
    );
    expect(text).toMatch(/^tessera_realtime_streams 0$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
  });

  it("warms the schemas and the first screen's reads after listening, without a failure (issue 36)", async () => {
    await expect
      .poll(() => server.lines.some((line) => line.includes("compiled the routes' schemas")))
      .toBe(true);
    expect(server.lines.filter((line) => line.includes("warming the first screen's reads failed"))).toEqual(
      [],
    );
  });

  it("made its database from the build's template, not with initdb (issue 36)", () => {
    const created = server.lines
      .filter((line) => line.includes('"msg":"created the embedded database"'))
      .map((line) => JSON.parse(line) as { from: string; ms: number });
    expect(created).toHaveLength(1);
    expect(created[0]!.from).toBe("template");
  });

  it("serves the API end to end on its embedded database, then stops cleanly on SIGTERM", async () => {
    const json = { "content-type": "application/json", origin: base };
    const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        name: "Built",
        email: `built-${Date.now()}@example.test`,
        password: "built-password-1",
      }),
    });
    expect(signUp.status).toBe(200);
    const cookie = signUp.headers
      .getSetCookie()
      .find((c) => c.startsWith("session="))!
      .split(";")[0]!;
    const headers = { ...json, cookie };
    const dashboard = await (
      await fetch(`${base}/api/dashboards`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "Home" }),
      })
    ).json();
    const widget = await fetch(`${base}/api/widgets`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        dashboardId: dashboard.id,
        widgetType: "Clock",
        height: 1,
        width: 1,
        positionX: 0,
        positionY: 0,
      }),
    });
    expect(widget.status).toBe(201);
    const boot = await (await fetch(`${base}/api/bootstrap`, { headers: { cookie } })).json();
    expect(boot.dashboardId).toBe(dashboard.id);
    expect(boot.widgets).toHaveLength(1);
    const bad = await fetch(`${base}/api/dashboards?limit=0`, { headers: { cookie } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toMatch(/problem\+json/);
    const openapi = await (await fetch(`${base}/api/openapi.json`)).json();
    expect(openapi.paths["/api/bootstrap"]).toBeDefined();
    expect((await fetch(`${base}/api/docs/`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    // The bundled icon set is read from the package in node_modules, not from the bundle.
    const icon = await fetch(`${base}/api/icons/bundled/jellyfin`);
    expect(icon.status).toBe(200);
    expect((await icon.json()).title).toBe("Jellyfin");

    expect(await server.stop()).toBe(0);
  }, 60_000);

  it("writes what it held as provisioning files once stopped, as npm run export-provisioning runs it", () => {
    const start = startCommand();
    const run = spawnSync(
      process.execPath,
      [...start.flags, path.join(artifact.server, "main.js"), "export-provisioning", out],
      {
        env: {
          PATH: process.env.PATH ?? "",
          HOME: tmpdir(),
          ...start.env,
          DATA_DIR: dataDir,
          LOG_LEVEL: "warn",
        },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Wrote 1 dashboard\(s\) and 0 integration\(s\) to /);
    const files = readdirSync(path.join(out, "dashboards"));
    expect(files).toHaveLength(1);
    const written = parse(readFileSync(path.join(out, "dashboards", files[0]!), "utf8"));
    expect(written).toMatchObject({
      owner: expect.stringMatching(/^built-\d+@example\.test$/),
      dashboard: { name: "Home" },
    });
    expect(written.widgets.map((w: { widgetType: string }) => w.widgetType)).toEqual(["Clock"]);
  }, 60_000);
});
