/**
 * The lean-default benchmark (issues 12 and 36): memory, start-up, API latency and throughput,
 * and a cold page load in Chromium, of the compiled server as `npm start` runs it, with the
 * PostgreSQL modes and a bare Fastify route serving the same bytes measured in the same run. Every
 * figure is the median of several rounds and is printed next to its bar.
 *
 * Sections 2 and 4 start the server through `npm start` itself (npm, its shell, the server: the
 * whole tree's memory is counted), at the default log level, its output drained through a pipe as
 * docker or journald drain it. Section 1 compares Node flags, so it starts node directly; section 3
 * too, at LOG_LEVEL=warn.
 *
 *   npm run bench:lean
 *   BENCH_SECTIONS=1,2,3,4     the sections to run (the bars of the others are left out)
 *   BENCH_ROUNDS=3             rounds of section 1 (engine shapes) and of section 4 (npm start)
 *   BENCH_LOAD_ROUNDS=5        load rounds of section 2, of BENCH_SECONDS=5 each (also the length
 *                              of section 4's load right after a restart)
 *   BENCH_IDLE_SECONDS=20      how long a restarted server idles before its memory is read
 *   BENCH_PAGE_LOADS=9         cold page loads in section 3; CHROMIUM_PATH=/usr/bin/chromium
 *   BENCH_NODE_ARGS=…          Node flags for the bare Fastify baseline (bench/support/processes.ts)
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { chromium } from "playwright-core";
import { Client } from "undici";
import { build, isStale } from "../scripts/build.mjs";
import { createPostgresDatabase, createRedisNamespace } from "../test/support/services.js";
import { readsDuring, timed, timedGet } from "./support/latency.js";
import { treeMemory } from "./support/memory.js";
import { type NpmStart, npmStart, startScript, stopNpmStart } from "./support/npm-start.js";
import { freePort, median, percentile, ROOT, startProcess, stopProcess } from "./support/processes.js";
import { addWidgets, call, pool, type Session } from "./support/seed.js";
import {
  cpuSeconds,
  rssMiB,
  type StartCommand,
  startCommand,
  startServer,
  stopServer,
} from "./support/server.js";
import { newCredentials, signInOverHttp, signUpOverHttp } from "./support/sign-up.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Rounds of 5 s vary by a sixth on this machine, within one run: the median of 5 holds better than 3. */
const LOAD_ROUNDS = Number(process.env.BENCH_LOAD_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 20);
const CONNECTIONS = 50;
const START = startCommand();
const SECRETS = {
  AUTH_SECRET: "bench-secret-bench-secret-bench-secret-42",
  TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64"),
};
const log = (line = "") => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mib = (n: number) => `${n.toFixed(0)} MiB`;
const ms = (n: number) => `${n.toFixed(0)} ms`;
const SECTIONS = new Set((process.env.BENCH_SECTIONS ?? "1,2,3,4").split(",").map((n) => n.trim()));
/** The 1-minute load average: a figure taken while it is high was taken on a busy machine. */
const load1 = () => loadavg()[0]!;

/** The embedded engine's shapes measured side by side; the last one is the default. */
const SEMI_SPACE_ONLY: StartCommand = { env: {}, flags: ["--max-semi-space-size=2"] };
const ENGINES: { label: string; env: Record<string, string>; command: StartCommand }[] = [
  {
    label: "PGlite stock settings, event loop",
    env: { EMBEDDED_DB_THREAD: "main", EMBEDDED_DB_SETTINGS: "stock" },
    command: { env: {}, flags: [] },
  },
  { label: "household settings, event loop", env: { EMBEDDED_DB_THREAD: "main" }, command: START },
  { label: "household, worker, no flags", env: {}, command: { env: {}, flags: [] } },
  { label: "household, worker, semi-space only", env: {}, command: SEMI_SPACE_ONLY },
  {
    label: "household, worker, V8's tier-up budget",
    env: {},
    command: { env: START.env, flags: START.flags.filter((f) => !f.startsWith("--wasm-tiering-budget")) },
  },
  { label: "household, worker (default)", env: {}, command: START },
];

/** A user with a 200-widget and a 20-widget dashboard. */
async function seedWidgets(base: string) {
  const a = await signUpOverHttp(base, "lean");
  const s: Session = { base, cookie: a.cookie };
  const big = await call(s, "POST", "/api/dashboards", { name: "Two hundred" });
  const small = await call(s, "POST", "/api/dashboards", { name: "Twenty" });
  await addWidgets(s, big.id, 200);
  await addWidgets(s, small.id, 20);
  return { cookie: a.cookie, big: big.id as string, small: small.id as string };
}

/** seedWidgets' user, and one with 1,000 dashboards. */
async function seed(base: string) {
  const widgets = await seedWidgets(base);
  const b = await signUpOverHttp(base, "many");
  const many: Session = { base, cookie: b.cookie };
  await pool(1000, 10, async (i) => {
    await call(many, "POST", "/api/dashboards", { name: `Dashboard ${i}` });
  });
  return { ...widgets, manyCookie: b.cookie };
}

// ---------------------------------------------------------------- 1. engine shapes: memory, start

async function engineRounds() {
  const results = ENGINES.map(() => ({
    first: [] as number[],
    initPeak: [] as number[],
    restart: [] as number[],
    idle: [] as number[],
  }));
  for (let round = 0; round < ROUNDS; round++) {
    const dirs = ENGINES.map(() => mkdtempSync(path.join(tmpdir(), "tessera-lean-")));
    try {
      // First start on an empty DATA_DIR, then some data, then a stop.
      for (const [i, engine] of ENGINES.entries()) {
        const env = { ...SECRETS, ...engine.env, DATA_DIR: dirs[i]! };
        const server = await startServer(env, engine.command);
        results[i]!.first.push(rssMiB(server.child.pid!));
        results[i]!.initPeak.push(server.childPeakMiB);
        const user = await signUpOverHttp(server.base, "restart");
        const s = { base: server.base, cookie: user.cookie };
        await addWidgets(s, (await call(s, "POST", "/api/dashboards", { name: "Home" })).id, 20);
        await stopServer(server);
      }
      // Each restart alone: the servers started before it are stopped, since a server keeps a core
      // busy for seconds after its start (V8 optimising PostgreSQL's engine, its GC) and would slow
      // the next one's start. Its idle RSS is read IDLE_SECONDS after its own start.
      for (const [i, engine] of ENGINES.entries()) {
        const server = await startServer({ ...SECRETS, ...engine.env, DATA_DIR: dirs[i]! }, engine.command);
        results[i]!.restart.push(server.readyMs);
        await sleep(IDLE_SECONDS * 1000);
        results[i]!.idle.push(rssMiB(server.child.pid!));
        await stopServer(server);
      }
      log(
        `  round ${round + 1}: idle ${results.map((r) => mib(r.idle.at(-1)!)).join(" / ")}; restart ${results.map((r) => `${r.restart.at(-1)!.toFixed(0)} ms`).join(" / ")}`,
      );
    } finally {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  }
  return results.map((r) => ({
    first: median(r.first),
    initPeak: median(r.initPeak),
    restart: median(r.restart),
    idle: median(r.idle),
  }));
}

// ---------------------------------------------------------------- 2. load

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  serverCpu: number;
  clientCpu: number;
}

async function load(url: string, headers: Record<string, string>, pid: number): Promise<LoadResult> {
  const cpu0 = cpuSeconds(pid);
  const client0 = process.cpuUsage();
  const started = performance.now();
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  const wall = (performance.now() - started) / 1000;
  const client = process.cpuUsage(client0);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    serverCpu: (cpuSeconds(pid) - cpu0) / wall,
    clientCpu: (client.user + client.system) / 1e6 / wall,
  };
}

const summarise = (rows: LoadResult[]): LoadResult => ({
  rps: median(rows.map((r) => r.rps)),
  p50: median(rows.map((r) => r.p50)),
  p99: median(rows.map((r) => r.p99)),
  serverCpu: median(rows.map((r) => r.serverCpu)),
  clientCpu: median(rows.map((r) => r.clientCpu)),
});

/**
 * The Tessera servers of section 2, each through `npm start`. `cases` says which lists are loaded:
 * plain PostgreSQL is only compared with PostgreSQL + Redis (the bar's shape) on the 20-widget list.
 */
const LOAD_TARGETS = [
  { name: "embedded (worker)", cases: ["w200", "w20", "d1000"] },
  { name: "embedded (worker, no read cache)", cases: ["w200", "w20", "d1000"] },
  { name: "embedded (event loop)", cases: ["w200", "w20", "d1000"] },
  { name: "PostgreSQL", cases: ["w20"] },
  { name: "PostgreSQL + Redis", cases: ["w200", "w20", "d1000"] },
] as const;
type LoadTarget = (typeof LOAD_TARGETS)[number]["name"];

async function loadRounds() {
  const redis = await createRedisNamespace();
  const [postgres, postgresWithRedis] = [await createPostgresDatabase(), await createPostgresDatabase()];
  const dirs = [0, 1, 2].map(() => mkdtempSync(path.join(tmpdir(), "tessera-lean-")));
  const envs: Record<LoadTarget, Record<string, string>> = {
    "embedded (worker)": { DATA_DIR: dirs[0]! },
    "embedded (worker, no read cache)": { DATA_DIR: dirs[2]!, EMBEDDED_DB_READ_CACHE: "false" },
    "embedded (event loop)": { DATA_DIR: dirs[1]!, EMBEDDED_DB_THREAD: "main" },
    PostgreSQL: { DATABASE_URL: postgres.url },
    "PostgreSQL + Redis": {
      DATABASE_URL: postgresWithRedis.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
    },
  };
  type Seeded = Awaited<ReturnType<typeof seedWidgets>> & { manyCookie?: string };
  const targets: { name: LoadTarget; cases: readonly string[]; server: NpmStart; data: Seeded }[] = [];
  let bare: Awaited<ReturnType<typeof startProcess>> | null = null;
  let bodyFile = "";
  let listFile = "";
  try {
    for (const { name, cases } of LOAD_TARGETS) {
      const server = await npmStart({ ...SECRETS, WEB_DIST: "/nonexistent", ...envs[name] });
      log(`  seeding ${name}…`);
      const manyDashboards = (cases as readonly string[]).includes("d1000");
      const data = manyDashboards ? await seed(server.base) : await seedWidgets(server.base);
      targets.push({ name, cases, server, data });
    }
    // The bare baseline answers the very bytes the default server answers for the 20-widget list.
    const first = targets[0]!;
    const body = await (
      await fetch(`${first.server.base}/api/widgets?dashboardId=${first.data.small}`, {
        headers: { cookie: first.data.cookie },
      })
    ).text();
    bodyFile = path.join(tmpdir(), `tessera-lean-${process.pid}.json`);
    writeFileSync(bodyFile, body);
    const list = await (
      await fetch(`${first.server.base}/api/dashboards`, { headers: { cookie: first.data.manyCookie! } })
    ).text();
    listFile = path.join(tmpdir(), `tessera-lean-${process.pid}-dashboards.json`);
    writeFileSync(listFile, list);
    const port = await freePort();
    bare = await startProcess(
      "bench/support/bare-server.ts",
      { PORT: String(port), BARE_BODY_FILE: bodyFile, BARE_DASHBOARDS_FILE: listFile },
      `http://127.0.0.1:${port}/healthz`,
    );
    const bareUrl = `http://127.0.0.1:${port}/api/widgets`;

    type Case = { key: string; run: () => Promise<LoadResult> };
    const cases: Case[] = [];
    for (const t of targets) {
      const { base, serverPid } = t.server;
      const auth = { cookie: t.data.cookie };
      const urls: Record<string, [string, Record<string, string>]> = {
        w200: [`${base}/api/widgets?dashboardId=${t.data.big}`, auth],
        w20: [`${base}/api/widgets?dashboardId=${t.data.small}`, auth],
        d1000: [`${base}/api/dashboards`, { cookie: t.data.manyCookie ?? "" }],
      };
      for (const c of t.cases) {
        const [url, headers] = urls[c]!;
        cases.push({ key: `${c} ${t.name}`, run: () => load(url, headers, serverPid) });
      }
    }
    cases.push({ key: "w20 bare", run: () => load(bareUrl, {}, bare!.pid!) });
    cases.push({
      key: "d1000 bare",
      run: () => load(`http://127.0.0.1:${port}/api/dashboards`, {}, bare!.pid!),
    });
    log(
      `  ${body.length} bytes per 20-widget answer; ${LOAD_ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections; warming up…`,
    );
    for (const c of cases) await c.run(); // JIT, caches, pools
    const rows = new Map<string, LoadResult[]>(cases.map((c) => [c.key, []]));
    for (let round = 0; round < LOAD_ROUNDS; round++) {
      // Rotate the order each round so drift on a shared machine hits every case alike.
      const order = cases.map((_, i) => cases[(i + round * 3) % cases.length]!);
      for (const c of order) rows.get(c.key)!.push(await c.run());
      log(`  round ${round + 1} done (load ${load1().toFixed(2)})`);
    }
    return new Map([...rows].map(([key, list]) => [key, summarise(list)]));
  } finally {
    if (bare) await stopProcess(bare);
    await Promise.all(targets.map((t) => stopNpmStart(t.server)));
    for (const file of [...dirs, bodyFile, listFile].filter(Boolean))
      rmSync(file, { recursive: true, force: true });
    await postgres.drop();
    await postgresWithRedis.drop();
    await redis.cleanup();
  }
}

// ---------------------------------------------------------------- 3. cold page load in Chromium

async function within<T>(ms: number, promise: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Cold loads measured (after one warm-up load); a load takes about a second. */
const PAGE_LOADS = Number(process.env.BENCH_PAGE_LOADS ?? 9);
/** One of each widget kind (bench/support/seed.ts gives 13 widgets one kind each). */
const PAGE_WIDGETS = 13;
const RENDERED_WORD = "tessera-bench-rendered";
/** The load has settled once nothing but the event stream has been in flight for this long. */
const SETTLED_MS = 500;

/** Resolves once `done()` holds, checked every 50 ms. */
async function until(done: () => boolean) {
  while (!done()) await sleep(50);
}
/**
 * Runs in the page before its own scripts: on each animation frame (as the old polling did) it
 * looks for the dashboard's widgets, and says when it found them. A string, so no bundler helper leaks in.
 */
const RENDERED_PROBE = `if (location.protocol === "http:") {
  const look = () =>
    document.querySelectorAll("[data-widget-id]").length >= ${PAGE_WIDGETS}
      ? console.debug("${RENDERED_WORD} " + performance.now())
      : requestAnimationFrame(look);
  requestAnimationFrame(look);
}`;

async function pageRounds() {
  const dir = mkdtempSync(path.join(tmpdir(), "tessera-lean-"));
  const server = await startServer({ ...SECRETS, DATA_DIR: dir, WEB_DIST: path.join(ROOT, "dist/web") });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    const user = await signUpOverHttp(server.base, "page");
    const s = { base: server.base, cookie: user.cookie };
    const dashboard = await call(s, "POST", "/api/dashboards", { name: "Thirteen" });
    await addWidgets(s, dashboard.id, PAGE_WIDGETS);
    const settings = (await call(s, "GET", "/api/settings"))[0];
    await call(s, "PUT", "/api/settings", { id: settings.id, onboardingCompleted: true });
    const [name, value] = user.cookie.split("=") as [string, string];
    const rounds: { bytes: number; settledBytes: number; ms: number; api: string[] }[] = [];
    let heldWhileRendering: string[] = [];
    for (let round = 0; round < PAGE_LOADS + 1; round++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addCookies([{ name, value, url: server.base }]);
      // The page reports its own rendered moment on the console. Playwright's waitForFunction
      // would first inject its helper script into the page, 30-80 ms of the page's main thread
      // in the middle of the load, which no reader's browser pays.
      await context.addInitScript({ content: RENDERED_PROBE });
      const page = await context.newPage();
      const renderedAt = new Promise<number>((resolve) =>
        page.on("console", (message) => {
          const [word, ms] = message.text().split(" ");
          if (word === RENDERED_WORD) resolve(Number(ms));
        }),
      );
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
      let bytes = 0;
      // Everything the load brings, also after the render (the emoji font, the bell's and the
      // menus' requests), until it has settled; the event stream never ends and is not counted.
      let settledBytes = 0;
      const inFlight = new Set<string>();
      let lastActivity = performance.now();
      const api: string[] = [];
      let rendered = false;
      cdp.on("Network.loadingFinished", (e: { requestId: string; encodedDataLength: number }) => {
        if (!rendered) bytes += e.encodedDataLength;
        settledBytes += e.encodedDataLength;
        inFlight.delete(e.requestId);
        lastActivity = performance.now();
      });
      cdp.on("Network.loadingFailed", (e: { requestId: string }) => {
        inFlight.delete(e.requestId);
        lastActivity = performance.now();
      });
      cdp.on(
        "Network.requestWillBeSent",
        (e: { requestId: string; type?: string; request: { url: string } }) => {
          if (e.type !== "EventSource") inFlight.add(e.requestId);
          lastActivity = performance.now();
          const url = new URL(e.request.url);
          if (!rendered && url.pathname.startsWith("/api/")) api.push(url.pathname);
        },
      );
      // The first (warm-up) load also finds what the widgets wait for: every API request but the
      // bootstrap is held until they have rendered, so a request they needed would stall them.
      const held: string[] = [];
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      if (round === 0)
        await page.route("**/api/**", async (route) => {
          const pathname = new URL(route.request().url()).pathname;
          if (pathname !== "/api/bootstrap") {
            held.push(pathname);
            await released;
          }
          await route.continue().catch(() => {});
        });
      await page.goto(`${server.base}/d/${dashboard.id}`, { waitUntil: "commit" });
      const ms = await within(30_000, renderedAt, "the dashboard did not render in 30 s");
      rendered = true;
      release();
      await within(
        15_000,
        until(() => inFlight.size === 0 && performance.now() - lastActivity >= SETTLED_MS),
        "the page's load did not settle in 15 s",
      );
      await context.close();
      if (round === 0) heldWhileRendering = held;
      if (round > 0) rounds.push({ bytes, settledBytes, ms, api }); // the first load warms the server and disk cache
    }
    return {
      bytes: median(rounds.map((r) => r.bytes)),
      settledBytes: median(rounds.map((r) => r.settledBytes)),
      ms: median(rounds.map((r) => r.ms)),
      api: rounds[0]!.api,
      // Rendered with only the bootstrap answered: that is the one request the widgets wait for.
      awaited: ["/api/bootstrap"],
      held: heldWhileRendering,
    };
  } finally {
    await browser.close();
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- 4. through npm start

const SIGN_UPS = 20;
const SEQUENTIAL_GETS = 100;

interface NpmRound {
  loadAtStart: number;
  loadAtEnd: number;
  firstStart: number;
  firstServerRss: number;
  restart: number;
  firstRequest: number;
  hundredth: number;
  burstP99: number;
  burstMax: number;
  treePss: number;
  treeRss: number;
  npmPss: number;
  npmRss: number;
  serverRss: number;
  signUps: AuthBurst;
  signIns: AuthBurst;
}

/** One burst of password requests, and the reads that ran beside it. */
interface AuthBurst {
  p99: number;
  readP99: number;
  readMax: number;
  reads: number;
}

const burstOf = ({ result, reads }: { result: number[]; reads: number[] }): AuthBurst => ({
  p99: percentile(result, 99),
  readP99: percentile(reads, 99),
  readMax: Math.max(...reads),
  reads: reads.length,
});

const burstLine = (b: AuthBurst) =>
  `p99 ${ms(b.p99)} (reads p99 ${ms(b.readP99)}, max ${ms(b.readMax)}, ${b.reads} reads)`;

/**
 * `SIGN_UPS` users signing up at once, then signing in at once, while one keep-alive connection
 * reads the 20-widget list one request after another: what a burst of password hashing costs the
 * people already using the server.
 */
async function authBursts(base: string, cookie: string, small: string) {
  const users = Array.from({ length: SIGN_UPS }, (_, i) => newCredentials(`burst${i}`));
  const signUps = await readsDuring(base, small, cookie, () =>
    Promise.all(users.map((user) => timed(() => signUpOverHttp(base, user.name, user)))),
  );
  const signIns = await readsDuring(base, small, cookie, () =>
    Promise.all(users.map((user) => timed(() => signInOverHttp(base, user)))),
  );
  return { signUps: burstOf(signUps), signIns: burstOf(signIns) };
}

/** One round on a fresh DATA_DIR: every start is the only server running. */
async function npmStartRound(): Promise<NpmRound> {
  const loadAtStart = load1();
  const dir = mkdtempSync(path.join(tmpdir(), "tessera-lean-"));
  const env = { ...SECRETS, DATA_DIR: dir };
  const current: { server: NpmStart | null } = { server: null };
  const restart = async () => {
    if (current.server) await stopNpmStart(current.server);
    current.server = null;
    current.server = await npmStart(env);
    return current.server;
  };
  try {
    let server = await restart();
    const firstStart = server.readyMs;
    const firstServerRss = rssMiB(server.serverPid);
    const data = await seedWidgets(server.base);
    const big = `/api/widgets?dashboardId=${data.big}`;
    const small = `/api/widgets?dashboardId=${data.small}`;

    server = await restart();
    const restartMs = server.readyMs;
    // A new connection, as a browser opening the app after the restart.
    const client = new Client(server.base);
    const gets: number[] = [];
    let firstRequest: number;
    try {
      firstRequest = await timedGet(client, big, data.cookie);
      for (let i = 0; i < SEQUENTIAL_GETS; i++) gets.push(await timedGet(client, big, data.cookie));
    } finally {
      await client.close();
    }

    server = await restart();
    const burst = await autocannon({
      url: `${server.base}${big}`,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { cookie: data.cookie },
    });
    if (burst.non2xx > 0 || burst.errors > 0)
      throw new Error(`load after a restart: ${burst.non2xx} non-2xx, ${burst.errors} errors`);
    // autocannon's histograms carry max too; bench/autocannon.d.ts declares what the others read.
    const burstMax = (burst.latency as typeof burst.latency & { max: number }).max;

    server = await restart();
    await sleep(IDLE_SECONDS * 1000);
    const tree = treeMemory(server.child.pid!);
    const npm = tree.processes[0]!;
    const node = tree.processes.find((p) => p.pid === server.serverPid)!;
    const memoryLine = tree.processes.map((p) => `${p.name} ${mib(p.pssMiB)}/${mib(p.rssMiB)}`).join(", ");

    const auth = await authBursts(server.base, data.cookie, small);
    const round: NpmRound = {
      loadAtStart,
      loadAtEnd: load1(),
      firstStart,
      firstServerRss,
      restart: restartMs,
      firstRequest,
      hundredth: median(gets),
      burstP99: burst.latency.p99,
      burstMax,
      treePss: tree.pssMiB,
      treeRss: tree.rssMiB,
      npmPss: npm.pssMiB,
      npmRss: npm.rssMiB,
      serverRss: node.rssMiB,
      ...auth,
    };
    log(
      `  load ${round.loadAtStart.toFixed(2)} → ${round.loadAtEnd.toFixed(2)}: first start ${ms(firstStart)}, restart ${ms(restartMs)}, first GET ${ms(firstRequest)} (hundredth ${ms(round.hundredth)}), after a restart p99 ${ms(round.burstP99)} max ${ms(burstMax)}; idle PSS/RSS ${memoryLine}; sign-ups ${burstLine(auth.signUps)}, sign-ins ${burstLine(auth.signIns)}`,
    );
    return round;
  } finally {
    if (current.server) await stopNpmStart(current.server);
    rmSync(dir, { recursive: true, force: true });
  }
}

type Unit = "ms" | "MiB" | "";
interface Row {
  what: string;
  value: (r: NpmRound) => number;
  unit: Unit;
  /** The bar's text and whether a figure meets it; none for the figures shown beside a bar. */
  bar?: [string, (v: number) => boolean];
  /** The row's name in the summary of bars, where the rows above it are not. */
  summary?: string;
}

/** A burst's rows: its p99 against 1 s, the reads' p99 beside it against 100 ms, their max and count. */
function burstRows(what: string, during: string, of: (r: NpmRound) => AuthBurst): Row[] {
  return [
    { what: `${what}: p99`, value: (r) => of(r).p99, unit: "ms", bar: ["<= 1000 ms", (v) => v <= 1000] },
    {
      what: "  20-widget reads meanwhile, one at a time: p99",
      summary: `20-widget reads during the ${during}: p99`,
      value: (r) => of(r).readP99,
      unit: "ms",
      bar: ["<= 100 ms", (v) => v <= 100],
    },
    { what: "  their max", value: (r) => of(r).readMax, unit: "ms" },
    { what: "  how many", value: (r) => of(r).reads, unit: "" },
  ];
}

const NPM_ROWS: Row[] = [
  {
    what: "first start, empty DATA_DIR, to /healthz 200",
    value: (r) => r.firstStart,
    unit: "ms",
    bar: ["<= 5000 ms", (v) => v <= 5000],
  },
  {
    what: "  the server's RSS right then",
    summary: "server RSS right after the first start",
    value: (r) => r.firstServerRss,
    unit: "MiB",
    bar: ["<= 300 MiB", (v) => v <= 300],
  },
  {
    what: "restart with data, to /healthz 200",
    value: (r) => r.restart,
    unit: "ms",
    bar: ["<= 1000 ms", (v) => v <= 1000],
  },
  {
    what: "first GET /api/widgets (200 widgets) after it",
    summary: "first GET /api/widgets (200 widgets) after a restart",
    value: (r) => r.firstRequest,
    unit: "ms",
    bar: ["<= 300 ms", (v) => v <= 300],
  },
  { what: `  the hundredth (median of the next ${SEQUENTIAL_GETS})`, value: (r) => r.hundredth, unit: "ms" },
  {
    what: `same list, ${CONNECTIONS} conc. ${SECONDS} s from /healthz 200: p99`,
    value: (r) => r.burstP99,
    unit: "ms",
    bar: ["<= 150 ms", (v) => v <= 150],
  },
  { what: "  max", value: (r) => r.burstMax, unit: "ms" },
  {
    what: `tree PSS (npm, sh, node) ${IDLE_SECONDS} s after a restart`,
    value: (r) => r.treePss,
    unit: "MiB",
    bar: ["<= 150 MiB", (v) => v <= 150],
  },
  { what: "  tree RSS summed", value: (r) => r.treeRss, unit: "MiB" },
  { what: "  npm's own PSS", value: (r) => r.npmPss, unit: "MiB" },
  { what: "  npm's own RSS", value: (r) => r.npmRss, unit: "MiB" },
  { what: "  the server's RSS", value: (r) => r.serverRss, unit: "MiB" },
  ...burstRows(`${SIGN_UPS} concurrent sign-ups`, "sign-ups", (r) => r.signUps),
  ...burstRows(`${SIGN_UPS} concurrent sign-ins of those users`, "sign-ins", (r) => r.signIns),
];

const figure = (v: number, unit: Unit) =>
  unit === "ms" ? (v < 10 ? `${v.toFixed(1)} ms` : ms(v)) : unit === "MiB" ? mib(v) : v.toFixed(0);

/** Prints each round's figures, their median and its bar; returns the bars as the summary lists them. */
function npmStartTable(rounds: NpmRound[]): [string, string, string, boolean][] {
  const bars: [string, string, string, boolean][] = [];
  const columns = rounds.map((_, i) => `round ${i + 1}`.padStart(9)).join(" ");
  log(`\n   ${"".padEnd(52)} ${columns} ${"median".padStart(9)}  bar`);
  for (const row of NPM_ROWS) {
    const values = rounds.map(row.value);
    const middle = median(values);
    const cells = values.map((v) => figure(v, row.unit).padStart(9)).join(" ");
    const [bar, meets] = row.bar ?? ["", () => true];
    const ok = meets(middle);
    log(
      `   ${row.what.padEnd(52)} ${cells} ${figure(middle, row.unit).padStart(9)}  ${bar.padEnd(11)} ${row.bar ? verdict(ok) : ""}`,
    );
    if (row.bar) bars.push([row.summary ?? row.what, figure(middle, row.unit), bar, ok]);
  }
  const loads = rounds
    .map((r) => `${r.loadAtStart.toFixed(2)}→${r.loadAtEnd.toFixed(2)}`.padStart(9))
    .join(" ");
  log(`   ${"load average (1 min) at the round's start→end".padEnd(52)} ${loads}`);
  return bars;
}

// ---------------------------------------------------------------- report

const verdict = (ok: boolean) => (ok ? "met" : "MISSED");
type Bar = [what: string, figure: string, bar: string, ok: boolean];

async function main() {
  if (isStale("web") || isStale("server"))
    await build((["web", "server"] as const).filter((p) => isStale(p)));
  const loadAtStart = load1();
  const run = () =>
    `Node ${process.version}; npm start: ${startScript()}; rounds: ${ROUNDS} engine and npm start, ${LOAD_ROUNDS} load; sections ${[...SECTIONS].join(",")}`;
  log(`${run()}; load average (1 min) at the start ${loadAtStart.toFixed(2)}`);
  const bars: Bar[] = [];

  if (SECTIONS.has("1")) {
    log(
      "\n1. Embedded engine shapes, node started directly (first start on an empty DATA_DIR, restart, idle)",
    );
    const engines = await engineRounds();
    log(
      `\n   ${"option".padEnd(40)} ${"first start".padStart(12)} ${"init child peak".padStart(16)} ${"restart".padStart(9)} ${`idle ${IDLE_SECONDS}s`.padStart(9)}`,
    );
    for (const [i, e] of engines.entries())
      log(
        `   ${ENGINES[i]!.label.padEnd(40)} ${mib(e.first).padStart(12)} ${mib(e.initPeak).padStart(16)} ${ms(e.restart).padStart(9)} ${mib(e.idle).padStart(9)}`,
      );
  }

  if (SECTIONS.has("2")) {
    log(
      "\n2. API under load, servers through npm start at the default log level (autocannon in this process)",
    );
    const loads = await loadRounds();
    log(
      `\n   ${"case".padEnd(42)} ${"req/s".padStart(8)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)} ${"server CPU".padStart(10)} ${"client CPU".padStart(10)}`,
    );
    for (const [key, r] of loads)
      log(
        `   ${key.padEnd(42)} ${r.rps.toFixed(0).padStart(8)} ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)} ${`${(r.serverCpu * 100).toFixed(0)}%`.padStart(10)} ${`${(r.clientCpu * 100).toFixed(0)}%`.padStart(10)}`,
      );
    const get = (key: string) => loads.get(key)!;
    const bare = get("w20 bare").rps;
    const versusBare = (target: string) => get(`w20 ${target}`).rps / bare;
    bars.push(
      [
        "GET /api/widgets, 200 widgets, 50 conc., p99 (embedded)",
        `${get("w200 embedded (worker)").p99} ms`,
        "<= 100 ms",
        get("w200 embedded (worker)").p99 <= 100,
      ],
      ["  same on PostgreSQL + Redis (baseline)", `${get("w200 PostgreSQL + Redis").p99} ms`, "-", true],
      [
        "GET /api/widgets (20) req/s vs bare Fastify, PostgreSQL + Redis",
        `${versusBare("PostgreSQL + Redis").toFixed(2)}x`,
        ">= 0.35x",
        versusBare("PostgreSQL + Redis") >= 0.35,
      ],
      ["  same on PostgreSQL alone", `${versusBare("PostgreSQL").toFixed(2)}x`, "-", true],
      [
        "GET /api/widgets (20) req/s vs bare Fastify, embedded",
        `${versusBare("embedded (worker)").toFixed(2)}x`,
        ">= 0.25x",
        versusBare("embedded (worker)") >= 0.25,
      ],
      [
        "GET /api/dashboards, 1,000 dashboards, p99 (embedded)",
        `${get("d1000 embedded (worker)").p99} ms`,
        "<= 100 ms",
        get("d1000 embedded (worker)").p99 <= 100,
      ],
      [
        "GET /api/dashboards, 1,000 dashboards, p99 (PostgreSQL + Redis)",
        `${get("d1000 PostgreSQL + Redis").p99} ms`,
        "<= 100 ms",
        get("d1000 PostgreSQL + Redis").p99 <= 100,
      ],
      ["  same bytes from bare Fastify (baseline)", `${get("d1000 bare").p99} ms`, "-", true],
      ["  (bare Fastify's 20-widget list, req/s)", bare.toFixed(0), "-", true],
    );
  }

  if (SECTIONS.has("3")) {
    log(`\n3. Cold page load of a ${PAGE_WIDGETS}-widget dashboard in Chromium (cache disabled, loopback)`);
    const page = await pageRounds();
    log(
      `   ${(page.bytes / 1024).toFixed(1)} KB over the wire until rendered, ${(page.settledBytes / 1024).toFixed(1)} KB with what the page loads after its render; rendered at ${ms(page.ms)} (median of ${PAGE_LOADS} cold loads); API requests before render: ${page.api.join(", ")} (held until the widgets rendered: ${page.held.join(", ") || "none"})`,
    );
    bars.push(
      [
        "cold page load, bytes over the wire until rendered",
        `${(page.bytes / 1024).toFixed(0)} KB`,
        "<= 200 KB",
        page.bytes <= 200 * 1024,
      ],
      [
        "  and with what it loads after its render (settled)",
        `${(page.settledBytes / 1024).toFixed(0)} KB`,
        "<= 200 KB",
        page.settledBytes <= 200 * 1024,
      ],
      ["cold page load, to rendered (loopback)", ms(page.ms), "<= 400 ms", page.ms <= 400],
      [
        "API requests the widgets wait for (bootstrap, sent before the bundle runs)",
        String(page.awaited.length),
        "<= 1",
        page.awaited.length <= 1,
      ],
    );
  }

  if (SECTIONS.has("4")) {
    log(
      `\n4. Through npm start (the command people run): the embedded default at the default log level; each start the only server running`,
    );
    const rounds: NpmRound[] = [];
    for (let round = 0; round < ROUNDS; round++) rounds.push(await npmStartRound());
    bars.unshift(...npmStartTable(rounds));
  }

  log("\nBars (the embedded default through npm start, the compiled server; medians)");
  for (const [what, figure, bar, ok] of bars)
    log(
      `   ${what.padEnd(74)} ${figure.padStart(10)}  bar ${bar.padEnd(10)} ${bar === "-" ? "" : verdict(ok)}`,
    );
  log(
    `\n${run()}; load average (1 min) ${loadAtStart.toFixed(2)} at the start, ${load1().toFixed(2)} at the end`,
  );
}

await main();
