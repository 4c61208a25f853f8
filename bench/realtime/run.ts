/**
 * Realtime benchmark: two Tessera instances on PostgreSQL + Redis, USERS users with TABS open
 * tabs each (SSE connections alternating between the instances), RATE notifications per second
 * for SECONDS seconds, posted through the API and spread over users and instances.
 *
 *   npx tsx bench/realtime/run.ts            (USERS=500 TABS=2 RATE=200 SECONDS=30 by default)
 *
 * Delivery latency is measured in this process, from just before a POST is sent to the moment
 * the event is parsed on a tab; the POST round trip alone is printed as the baseline.
 */
import http from "node:http";
import { performance } from "node:perf_hooks";
import { createPostgresDatabase, createRedisNamespace } from "../../test/support/services.js";
import { signUpOverHttp } from "../support/sign-up.js";
import { Instance } from "./instances.js";
import { SseClient } from "./sse-client.js";

const USERS = Number(process.env.USERS ?? 500);
const TABS = Number(process.env.TABS ?? 2);
const RATE = Number(process.env.RATE ?? 200);
const SECONDS = Number(process.env.SECONDS ?? 30);
const TOTAL = RATE * SECONDS;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line: string) => process.stdout.write(`${line}\n`);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Runs `task` over `items` with at most `limit` in flight. */
async function pool<T>(items: T[], limit: number, task: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        await task(items[index]!, index);
      }
    }),
  );
}

interface User {
  id: string;
  token: string;
}

/** POSTs a notification over a keep-alive connection; resolves with the status code. */
function postNotification(agent: http.Agent, base: string, token: string, message: string) {
  return new Promise<number>((resolve) => {
    const body = JSON.stringify({ type: "message", message });
    const req = http.request(
      `${base}/api/notifications`,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", () => resolve(0));
    req.end(body);
  });
}

async function main() {
  log(`realtime bench: ${USERS} users x ${TABS} tabs, ${RATE}/s for ${SECONDS} s, 2 instances`);
  const database = await createPostgresDatabase();
  const redis = await createRedisNamespace();
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret-012345",
    TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString("base64"),
    RATE_LIMIT_ENABLED: "false",
    // Many streams per user are the load here, not something to refuse.
    LIMIT_STREAMS_PER_USER: "100000",
    LOG_LEVEL: "warn",
    WEB_DIST: "/nonexistent",
  };
  const instances: Instance[] = [];
  const tabs: SseClient[] = [];
  try {
    // Started one after the other: both would migrate the fresh database at once otherwise (safe, but slower).
    for (const name of ["A", "B"]) instances.push(await Instance.start(name, env));
    const rss = (label: string) =>
      log(
        `  RSS ${label.padEnd(26)} ${instances.map((i) => `${i.name} ${i.rssMiB().toFixed(0)} MiB`).join(", ")}`,
      );
    rss("idle");

    let started = performance.now();
    const users: User[] = new Array(USERS);
    await pool([...Array(USERS).keys()], 8, async (i) => {
      users[i] = await signUpOverHttp(instances[i % 2]!.base, `bench-${i}`);
    });
    log(`  signed up ${USERS} users in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    rss("after sign-ups");

    // Receipts: for notification k, how many times each tab got it, and when.
    const sentAt = new Float64Array(TOTAL);
    const latencies: number[] = [];
    const received = new Map<number, number>(); // k * TABS + tab -> count
    let misrouted = 0;
    let unexpected = 0;

    started = performance.now();
    const plan = [...Array(USERS * TABS).keys()];
    await pool(plan, 50, async (slot) => {
      const user = Math.floor(slot / TABS);
      const tab = slot % TABS;
      // A user's tabs alternate between the instances, so every event crosses the bus.
      const instance = instances[(user + tab) % 2]!;
      const client = await SseClient.open(`${instance.base}/api/realtime`, {
        authorization: `Bearer ${users[user]!.token}`,
      });
      if (client.status !== 200) throw new Error(`stream ${slot} answered ${client.status}`);
      client.onEvent = (event) => {
        const now = performance.now();
        const data = JSON.parse(event.data) as { userId: string; message: string };
        if (data.userId !== users[user]!.id) misrouted++;
        const match = /^bench (\d+)$/.exec(data.message);
        if (!match) return void unexpected++;
        const k = Number(match[1]);
        const key = k * TABS + tab;
        const count = (received.get(key) ?? 0) + 1;
        received.set(key, count);
        if (count === 1) latencies.push(now - sentAt[k]!);
      };
      tabs.push(client);
    });
    log(`  opened ${tabs.length} streams in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await sleep(1000);
    rss(`with ${tabs.length} open streams`);

    const agents = instances.map(() => new http.Agent({ keepAlive: true, maxSockets: 64 }));
    const postLatencies: number[] = [];
    let failedPosts = 0;
    const inFlight = new Set<Promise<void>>();
    started = performance.now();
    const interval = 1000 / RATE;
    for (let k = 0; k < TOTAL; k++) {
      const due = started + k * interval;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      const user = users[k % USERS]!;
      const target = Math.floor(k / USERS) % 2;
      sentAt[k] = performance.now();
      const request = postNotification(
        agents[target]!,
        instances[target]!.base,
        user.token,
        `bench ${k}`,
      ).then((status) => {
        if (status === 201) postLatencies.push(performance.now() - sentAt[k]!);
        else failedPosts++;
        inFlight.delete(request);
      });
      inFlight.add(request);
    }
    const postingSeconds = (performance.now() - started) / 1000;
    await Promise.all(inFlight);
    const expected = (TOTAL - failedPosts) * TABS;
    const drainDeadline = Date.now() + 10_000;
    while (latencies.length < expected && Date.now() < drainDeadline) await sleep(50);
    await sleep(500); // late duplicates, if any, arrive now
    rss("after the load");

    let deliveries = 0;
    for (const count of received.values()) deliveries += count;
    latencies.sort((a, b) => a - b);
    postLatencies.sort((a, b) => a - b);
    log("");
    log(
      `  posted               ${TOTAL} in ${postingSeconds.toFixed(1)} s (${(TOTAL / postingSeconds).toFixed(0)}/s), failed ${failedPosts}`,
    );
    log(`  deliveries expected  ${expected}`);
    log(`  delivered (unique)   ${received.size}`);
    log(`  events lost          ${expected - received.size}`);
    log(`  duplicates           ${deliveries - received.size}`);
    log(`  misrouted            ${misrouted}, unexpected ${unexpected}`);
    log(`  streams still open   ${tabs.filter((t) => !t.ended).length} of ${tabs.length}`);
    log(
      `  delivery latency     p50 ${ms(percentile(latencies, 50))}  p90 ${ms(percentile(latencies, 90))}  p99 ${ms(percentile(latencies, 99))}  max ${ms(latencies.at(-1) ?? Number.NaN)}`,
    );
    log(
      `  baseline: POST->201  p50 ${ms(percentile(postLatencies, 50))}  p90 ${ms(percentile(postLatencies, 90))}  p99 ${ms(percentile(postLatencies, 99))}`,
    );
    for (const agent of agents) agent.destroy();
    process.exitCode = expected - received.size === 0 && misrouted === 0 ? 0 : 1;
  } finally {
    // Stopped with every stream still open: shutdown must end them rather than wait for them.
    const stopping = performance.now();
    const codes = await Promise.all(instances.map((instance) => instance.stop()));
    log(`  shutdown (SIGTERM)   exit codes ${codes.join(", ")} in ${ms(performance.now() - stopping)}`);
    for (const tab of tabs) tab.close();
    await redis.cleanup();
    await database.drop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
