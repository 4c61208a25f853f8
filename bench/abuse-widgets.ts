// The issue-10 abuse case: one user fills dashboards with 250 KiB widgets, then four parallel
// GET /api/widgets. Prints the server's RSS before and at its peak during the reads, with the
// per-user limits as configured by default and (ABUSE_LIFTED=1) lifted as before the fix.
// Usage: node scripts/build.mjs server && npm run bench:abuse
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { rssMiB, startServer, stopServer } from "./support/server.js";
import { signUpOverHttp } from "./support/sign-up.js";

const KIB = 1024;
const WIDGET_KIB = 250;
const WANTED = Number(process.env.ABUSE_WIDGETS ?? 600);
const lifted = process.env.ABUSE_LIFTED === "1";

const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-abuse-"));
const defaults = {
  LIMIT_DASHBOARDS_PER_USER: "100",
  LIMIT_WIDGETS_PER_DASHBOARD: "200",
  LIMIT_CONFIG_MIB_PER_USER: "8",
};
const server = await startServer({ DATA_DIR: dataDir, ...(lifted ? {} : defaults) });
const pid = server.child.pid!;
try {
  const { token } = await signUpOverHttp(server.base, "abuse");
  const headers = {
    authorization: `Bearer ${token}`,
    "content-type": "application/json",
    origin: server.base,
  };
  const post = (url: string, body: unknown) =>
    fetch(`${server.base}${url}`, { method: "POST", headers, body: JSON.stringify(body) });

  const config = { notes: [{ id: "n", title: "big", content: "x".repeat(WIDGET_KIB * KIB) }] };
  let dashboardId = "";
  let stored = 0;
  let refusal = "";
  for (let i = 0; i < WANTED && !refusal; i++) {
    if (i % 200 === 0) {
      const res = await post("/api/dashboards", { name: `Board ${i}` });
      if (res.status !== 201) refusal = `dashboard: ${res.status} ${(await res.json()).code}`;
      else dashboardId = ((await res.json()) as { id: string }).id;
      if (refusal) break;
    }
    const res = await post("/api/widgets", {
      dashboardId,
      widgetType: "Editor",
      height: 100,
      width: 100,
      positionX: 0,
      positionY: 0,
      config,
    });
    // Read every answer: an unread one keeps its connection busy and holds up the server's shutdown.
    if (res.status === 201) {
      await res.arrayBuffer();
      stored++;
    } else refusal = `widget ${i + 1}: ${res.status} ${((await res.json()) as { code: string }).code}`;
  }
  await new Promise((r) => setTimeout(r, 2000)); // let the writes' garbage settle before the baseline
  const before = rssMiB(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMiB(pid));
  }, 5);
  const sizes = await Promise.all(
    Array.from({ length: 4 }, async () => {
      const res = await fetch(`${server.base}/api/widgets`, { headers });
      return (await res.arrayBuffer()).byteLength;
    }),
  );
  clearInterval(sampler);
  peak = Math.max(peak, rssMiB(pid));
  console.log(
    JSON.stringify({
      limits: lifted ? "lifted" : "defaults",
      widgetsStored: stored,
      refusal: refusal || null,
      answerMiB: +(sizes[0]! / KIB / KIB).toFixed(1),
      rssBeforeMiB: Math.round(before),
      rssPeakMiB: Math.round(peak),
    }),
  );
} finally {
  await stopServer(server);
  rmSync(dataDir, { recursive: true, force: true });
}
