import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { badRequest } from "../../src/server/http/errors.js";
import type { CachePolicy } from "../../src/server/upstream/upstream.js";
import { signedInClient, TestClient } from "../support/client.js";
import { MODES, type ModeEnv, type ModeName, prepareMode } from "../support/modes.js";
import { expectProblem } from "../support/problems.js";

/**
 * `GET /metrics` (DESIGN section 17, issue 34): Prometheus text behind METRICS_TOKEN, 404 without
 * it; request durations by route template, open realtime streams, prom-client's process metrics.
 */

const TOKEN = "metrics-token-for-the-tests-0123456789";

describe.each<ModeName>(MODES)("metrics (%s)", { timeout: 60_000 }, (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let off: BuiltApp;

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start({ metricsToken: TOKEN });
    off = await mode.start();
  });
  afterAll(async () => {
    // The streams test's client hung up; the server may still hold that half-open socket, which
    // app.close() would wait for (see the note in git log 1ec87c6): cut it first.
    built?.app.server.closeAllConnections();
    await mode.teardown();
  });

  const scrape = (app: BuiltApp, authorization?: string) =>
    new TestClient(app.app).get("/metrics", authorization ? { authorization } : undefined);

  it("is not there without METRICS_TOKEN", async () => {
    expectProblem(await scrape(off, `Bearer ${TOKEN}`), 404, "not_found");
  });

  it("answers only the token: none, another, or a session are 401", async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, "Bearer "]) {
      const res = await scrape(built, authorization);
      expectProblem(res, 401, "unauthenticated");
      expect(res.headers["www-authenticate"]).toBe('Bearer realm="metrics"');
    }
    const user = await signedInClient(built.app, "Scraper");
    expectProblem(await user.get("/metrics"), 401, "unauthenticated");
  });

  it("counts requests by route template and status, never by the URL sent", async () => {
    const user = await signedInClient(built.app, "Counted");
    const dashboard = (await user.post("/api/dashboards", { name: "Counted" })).body;
    await user.get(`/api/widgets?dashboardId=${dashboard.id}`);
    await user.get(`/api/widgets?dashboardId=${dashboard.id}`);
    await user.get("/no/such/path/for/metrics");
    const res = await scrape(built, `Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    const count = (labels: string) =>
      Number(
        new RegExp(`^http_request_duration_seconds_count\\{${labels}\\} (\\d+)$`, "m").exec(text)?.[1] ?? 0,
      );
    expect(count('method="GET",route="/api/widgets",status_code="200"')).toBe(2);
    expect(count('method="POST",route="/api/dashboards",status_code="201"')).toBe(1);
    expect(count('method="GET",route="unmatched",status_code="404"')).toBe(1);
    expect(text).not.toContain("dashboardId=");
    expect(text).not.toContain("/no/such/path");
    for (const name of [
      "process_resident_memory_bytes",
      "nodejs_eventloop_lag_seconds",
      "nodejs_heap_size_used_bytes",
    ])
      expect(text).toMatch(new RegExp(`^${name} `, "m"));
    expect(text).toMatch(/^tessera_realtime_streams 0$/m);
    expect(text).not.toContain(TOKEN);
  });

  it("counts outside answers by source, outcome and cache", async () => {
    const policy: CachePolicy = {
      kind: "metrics-probe",
      fresh: 60_000,
      failuresRemembered: true,
      staleIfError: false,
    };
    const { upstream } = built.ctx;
    expect(await upstream.cached(policy, "good", async () => 1)).toBe(1);
    expect(await upstream.cached(policy, "good", async () => 2)).toBe(1);
    const failing = () => upstream.cached(policy, "bad", async () => Promise.reject(badRequest("no")));
    await expect(failing()).rejects.toThrow("no");
    await expect(failing()).rejects.toThrow("no");
    const text = (await scrape(built, `Bearer ${TOKEN}`)).text;
    const count = (labels: string) =>
      Number(new RegExp(`^tessera_upstream_answers_total\\{${labels}\\} (\\d+)$`, "m").exec(text)?.[1] ?? 0);
    expect(count('source="metrics-probe",outcome="ok",cache="miss"')).toBe(1);
    expect(count('source="metrics-probe",outcome="ok",cache="hit"')).toBe(1);
    expect(count('source="metrics-probe",outcome="error",cache="miss"')).toBe(1);
    expect(count('source="metrics-probe",outcome="error",cache="hit"')).toBe(1);
  });

  it("tells database waits and the job queue's depth and lateness", async () => {
    expect((await scrape(built, `Bearer ${TOKEN}`)).text).toMatch(/^tessera_database_waiting \d+$/m);
    const queue = await built.ctx.jobs.ensure();
    // A queue no worker takes from: its job is due an hour ago and still waits.
    await queue.boss.createQueue("metrics-probe");
    await queue.boss.send("metrics-probe", {}, { startAfter: new Date(Date.now() - 3_600_000) });
    const text = (await scrape(built, `Bearer ${TOKEN}`)).text;
    expect(text).toMatch(/^tessera_jobs_queued\{queue="metrics-probe"\} 1$/m);
    const late = Number(
      /^tessera_jobs_lateness_seconds\{queue="metrics-probe"\} ([\d.e+]+)$/m.exec(text)?.[1],
    );
    expect(late).toBeGreaterThan(3_500);
  });

  it("counts the open realtime streams of the instance", async () => {
    const user = await signedInClient(built.app, "Streamer");
    await built.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = built.app.server.address() as { port: number };
    const abort = new AbortController();
    const stream = await fetch(`http://127.0.0.1:${port}/api/realtime`, {
      headers: { cookie: user.cookie! },
      signal: abort.signal,
    });
    const reader = stream.body!.getReader();
    await reader.read();
    expect((await scrape(built, `Bearer ${TOKEN}`)).text).toMatch(/^tessera_realtime_streams 1$/m);

    // An event published on the bus and written to the open stream counts on both sides.
    const sent = await user.post("/api/notifications", { type: "message", message: "counted once" });
    expect(sent.status, sent.text).toBe(201);
    let seen = "";
    while (!seen.includes("event: notification.created"))
      seen += new TextDecoder().decode((await reader.read()).value);
    const text = (await scrape(built, `Bearer ${TOKEN}`)).text;
    expect(text).toMatch(/^tessera_events_published_total\{event="notification.created"\} [1-9]/m);
    expect(text).toMatch(/^tessera_events_delivered_total\{event="notification.created"\} 1$/m);
    abort.abort();
    await reader.closed.catch(() => {});
  });

  it("exposes every series the Grafana dashboard in deploy/ reads", async () => {
    const dashboard = JSON.parse(readFileSync("deploy/grafana/tessera-dashboard.json", "utf8")) as {
      panels: { targets: { expr: string }[] }[];
    };
    const names = new Set(
      dashboard.panels.flatMap((panel) =>
        panel.targets.flatMap(
          (target) => target.expr.match(/\b(tessera|http|process|nodejs)_[a-z0-9_]+/g) ?? [],
        ),
      ),
    );
    expect(names.size).toBeGreaterThan(10);
    const text = (await scrape(built, `Bearer ${TOKEN}`)).text;
    for (const name of names) expect(text, name).toMatch(new RegExp(`^${name}[{ ]`, "m"));
  });
});
