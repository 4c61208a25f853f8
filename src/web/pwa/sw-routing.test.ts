import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LAST_LOADED_KEY, WORKER_MESSAGES } from "./worker-protocol";
import { ORIGIN, type Sandbox, WORKER_FILE, workerSandbox } from "./worker-sandbox";

/** The service worker's decisions (src/web/public/sw.js, run as shipped in a sandbox). */

const SHELL = ["/", "/early-bootstrap.js", "/manifest.webmanifest", "/icons/icon-192.png"];

function route(method: string, path: string, mode = "cors", origin = ORIGIN) {
  const worker = workerSandbox();
  return worker.global<(...args: unknown[]) => string>("routeOf")(
    method,
    `${origin}${path}`,
    mode,
    ORIGIN,
    SHELL,
  );
}

const json =
  (body: unknown, status = 200) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("routing", () => {
  it("answers navigations to the app, never to the server's own pages", () => {
    for (const path of ["/", "/d/0190c3a4-0000-7000-8000-000000000000", "/signin", "/p/x?embed=1"])
      expect(route("GET", path, "navigate")).toBe("navigation");
    for (const path of ["/api/docs", "/api/auth/callback/google", "/healthz", "/readyz", "/metrics"])
      expect(route("GET", path, "navigate")).toBe("pass");
  });

  it("serves hashed files cache-first and the other shell files network-first", () => {
    expect(route("GET", "/assets/index-Ab12.js")).toBe("asset");
    expect(route("GET", "/assets/emoji-common-9f.woff2")).toBe("asset");
    expect(route("GET", "/early-bootstrap.js")).toBe("shell");
    expect(route("GET", "/manifest.webmanifest")).toBe("shell");
    // Not in the build's shell list: the browser fetches it as if there were no worker.
    expect(route("GET", "/robots.txt")).toBe("pass");
    expect(route("GET", "/src/main.tsx")).toBe("pass");
  });

  it("keeps copies of the dashboard's and its widgets' answers only", () => {
    for (const path of [
      "/api/bootstrap",
      "/api/bootstrap?dashboardId=abc",
      "/api/dashboards",
      "/api/widgets?dashboardId=abc",
      "/api/settings",
      "/api/me",
      "/api/providers",
      "/api/widgets/data?id=w1",
      "/api/widgets/framing?id=w1",
      "/api/exchange/prices?pairs=BTC-USD&timeframe=1d",
      "/api/weather?lat=1&lon=2&unit=celsius",
      "/api/feeds?urls=x",
      "/api/status?widgetId=w1",
      "/api/providers/suite/mail/messages?labels=INBOX",
      "/api/providers/suite/events",
      "/api/providers/codehost/items?type=pr",
      "/api/providers/notes/pages/p1",
      "/api/icons/site?url=https%3A%2F%2Fexample.com",
      "/api/icons/bundled/jellyfin",
      "/api/public/dashboards/b1",
      "/api/public/dashboards/b1/widgets/w1/weather",
    ])
      expect(route("GET", path), path).toBe("copy");
    for (const path of [
      "/api/realtime",
      "/api/auth/get-session",
      "/api/admin/users",
      "/api/admin/audit",
      "/api/push/key",
      "/api/push/subscriptions",
      "/api/keys",
      "/api/sessions",
      "/api/account",
      "/api/notifications",
      "/api/weather/search?q=Berlin",
      "/api/icons/bundled?q=git",
      "/api/dashboards/export?id=b1",
      "/api/dashboards/versions?id=b1",
      "/api/providers/suite/mail/messages/m1",
      "/api/integrations",
      "/api/home-assistant/entities",
    ])
      expect(route("GET", path), path).toBe("pass");
  });

  it("never answers writes, other origins or other methods, but drops the copies at sign-in and sign-out", () => {
    expect(route("POST", "/api/widgets")).toBe("pass");
    expect(route("PUT", "/api/settings")).toBe("pass");
    expect(route("GET", "/api/bootstrap", "cors", "https://elsewhere.example")).toBe("pass");
    expect(route("GET", "/", "navigate", "https://elsewhere.example")).toBe("pass");
    expect(route("HEAD", "/api/bootstrap")).toBe("pass");
    for (const path of ["/api/auth/sign-in/email", "/api/auth/sign-up/email", "/api/auth/sign-out"])
      expect(route("POST", path)).toBe("clear-copies");
    expect(route("DELETE", "/api/account")).toBe("clear-copies");
    expect(route("PUT", "/api/account")).toBe("pass");
    expect(route("POST", "/api/auth/update-user")).toBe("pass");
  });

  it("keeps only full JSON or image answers of a sane size", () => {
    const isKeepable = workerSandbox().global("isKeepable");
    expect(isKeepable(200, "application/json; charset=utf-8", 100)).toBe(true);
    expect(isKeepable(200, "application/problem+json", 100)).toBe(true);
    expect(isKeepable(200, "image/png", 100)).toBe(true);
    expect(isKeepable(206, "application/json", 100)).toBe(false);
    expect(isKeepable(200, "text/html", 100)).toBe(false);
    expect(isKeepable(200, "text/event-stream", 100)).toBe(false);
    expect(isKeepable(200, "application/json", 2 * 1024 * 1024)).toBe(false);
  });

  it("drops the caches of other builds and copy formats, never another app's", () => {
    const staleCaches = workerSandbox().global("staleCaches");
    expect(
      staleCaches(
        ["tessera-shell-old", "tessera-shell-new", "tessera-copies-v0", "tessera-copies-v1", "other-app"],
        "tessera-shell-new",
        "tessera-copies-v1",
      ),
    ).toEqual(["tessera-shell-old", "tessera-copies-v0"]);
  });

  it("speaks the page's protocol (worker-protocol.ts)", () => {
    const worker = workerSandbox();
    expect(worker.global("MESSAGES")).toEqual(WORKER_MESSAGES);
    expect(worker.global("LAST_LOADED_KEY")).toBe(LAST_LOADED_KEY);
  });
});

/** The worker as a build stamps it (src/web/pwa/build/stamp-worker.mjs), with `shell`. */
function stampedWorker(shell: string[]) {
  return workerSandbox(
    readFileSync(WORKER_FILE, "utf8").replace(
      'const BUILD = { version: "dev", shell: [] }; // stamped by the build',
      `const BUILD = ${JSON.stringify({ version: "abc", shell })};`,
    ),
  );
}

const shellPage = () =>
  new Response("<html>shell</html>", { headers: { "content-type": "text/html; charset=utf-8" } });

/** An installed worker whose page "page-1" loaded through it, with a server answering the dashboard. */
async function loadedPage(): Promise<Sandbox> {
  const worker = stampedWorker(["/"]);
  worker.server.set("/", shellPage);
  await worker.lifecycle("install");
  await worker.lifecycle("activate");
  worker.server.set("/api/bootstrap", json({ session: { user: "ada" } }));
  worker.server.set("/api/widgets/data?id=w1", json({ temperature: 21 }));
  await worker.fetch("/", { mode: "navigate", resultingClientId: "page-1" });
  await worker.fetch("/api/bootstrap", { clientId: "page-1" });
  await worker.fetch("/api/widgets/data?id=w1", { clientId: "page-1" });
  return worker;
}

async function bodyOf(answer: Response | "pass") {
  if (answer === "pass") throw new Error("the worker passed the request on");
  return answer.json();
}

describe("offline copies", () => {
  it("answers a page loading offline with the last copies, and tells it when they were stored", async () => {
    const worker = await loadedPage();
    worker.online = false;
    await worker.fetch("/", { mode: "navigate", resultingClientId: "page-2" });
    expect(await bodyOf(await worker.fetch("/api/bootstrap", { clientId: "page-2" }))).toEqual({
      session: { user: "ada" },
    });
    expect(await bodyOf(await worker.fetch("/api/widgets/data?id=w1", { clientId: "page-2" }))).toEqual({
      temperature: 21,
    });
    const told = worker.told.get("page-2") as { type: string; storedAt: number }[];
    expect(told.map((m) => m.type)).toEqual([WORKER_MESSAGES.copyServed, WORKER_MESSAGES.copyServed]);
    expect(told[0]!.storedAt).toBeGreaterThan(Date.now() - 60_000);
    const lastLoaded = await worker.caches.get("tessera-copies-v1")!.match(`${ORIGIN}${LAST_LOADED_KEY}`);
    expect(Number(await lastLoaded!.text())).toBe(Math.max(...told.map((m) => m.storedAt)));
  });

  it("does not hide a failed refresh from a page that already had the answer", async () => {
    const worker = await loadedPage();
    worker.online = false;
    await expect(worker.fetch("/api/widgets/data?id=w1", { clientId: "page-1" })).rejects.toThrow(
      "Failed to fetch",
    );
    // A page this worker did not see load (it restarted since) gets no copy either.
    await expect(worker.fetch("/api/bootstrap", { clientId: "unknown-page" })).rejects.toThrow();
  });

  it("answers from the network while it answers, and says so", async () => {
    const worker = await loadedPage();
    worker.server.set("/api/widgets/data?id=w1", json({ temperature: 23 }));
    expect(await bodyOf(await worker.fetch("/api/widgets/data?id=w1", { clientId: "page-1" }))).toEqual({
      temperature: 23,
    });
    expect(worker.told.get("page-1")?.at(-1)).toEqual({ type: WORKER_MESSAGES.networkAnswered });
    worker.online = false;
    await worker.fetch("/", { mode: "navigate", resultingClientId: "page-2" });
    expect(await bodyOf(await worker.fetch("/api/widgets/data?id=w1", { clientId: "page-2" }))).toEqual({
      temperature: 23,
    });
  });

  it("keeps no error answers, and drops every copy when the session has ended", async () => {
    const worker = await loadedPage();
    worker.server.set("/api/widgets/data?id=w1", json({ code: "upstream_failed" }, 502));
    await worker.fetch("/api/widgets/data?id=w1", { clientId: "page-1" });
    const copies = worker.caches.get("tessera-copies-v1")!;
    expect(await (await copies.match(`${ORIGIN}/api/widgets/data?id=w1`))!.json()).toEqual({
      temperature: 21,
    });
    worker.server.set("/api/bootstrap", json({ code: "unauthenticated" }, 401));
    await worker.fetch("/api/bootstrap", { clientId: "page-1" });
    expect(worker.caches.has("tessera-copies-v1")).toBe(false);
  });

  it("drops every copy when someone signs in or out", async () => {
    for (const path of ["/api/auth/sign-out", "/api/auth/sign-in/email"]) {
      const worker = await loadedPage();
      expect(await worker.fetch(path, { method: "POST", clientId: "page-1" })).toBe("pass");
      expect(worker.caches.has("tessera-copies-v1")).toBe(false);
    }
  });
});

describe("the app shell", () => {
  it("caches the chunks a page loaded before the worker, not its API answers", async () => {
    const worker = stampedWorker(["/"]);
    worker.server.set("/", shellPage);
    worker.server.set("/assets/lazy-1.js", () => new Response("export {}"));
    worker.server.set("/api/bootstrap", json({ session: { user: "ada" } }));
    await worker.lifecycle("install");
    await worker.lifecycle("activate");
    await worker.message({
      type: WORKER_MESSAGES.warm,
      hrefs: [`${ORIGIN}/assets/lazy-1.js`, `${ORIGIN}/api/bootstrap`, "https://elsewhere.example/x.js", 42],
    });
    expect(worker.networkLog.sort()).toEqual([`GET ${ORIGIN}/`, `GET ${ORIGIN}/assets/lazy-1.js`]);
    worker.online = false;
    expect(await ((await worker.fetch("/assets/lazy-1.js")) as Response).text()).toBe("export {}");
  });

  it("answers any navigation offline with the precached index.html", async () => {
    const worker = stampedWorker(["/", "/assets/index-1.js"]);
    worker.server.set("/", shellPage);
    worker.server.set("/assets/index-1.js", () => new Response("console.log(1)"));
    await worker.lifecycle("install");
    worker.online = false;
    const page = await worker.fetch("/d/some-dashboard", { mode: "navigate", resultingClientId: "p" });
    expect(await (page as Response).text()).toBe("<html>shell</html>");
    expect(await ((await worker.fetch("/assets/index-1.js")) as Response).text()).toBe("console.log(1)");
  });

  it("installs although a shell file is missing (Web Push must not depend on the shell)", async () => {
    const worker = stampedWorker(["/", "/assets/gone.js"]);
    worker.server.set("/", shellPage);
    await worker.lifecycle("install");
    expect([...worker.caches.get("tessera-shell-abc")!.entries.keys()]).toEqual([`${ORIGIN}/`]);
  });

  it("without a stamped shell (the dev server), a navigation fails offline as without a worker", async () => {
    const worker = workerSandbox();
    worker.online = false;
    await expect(worker.fetch("/d/x", { mode: "navigate", resultingClientId: "p" })).rejects.toThrow();
  });
});
