import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeExchange, maxInWindow, startFakeExchange } from "../fakes/exchange.js";
import { EXPECTED_CURRENCIES } from "../fakes/exchange-market.js";
import { signedInClient, type TestClient } from "../support/client.js";
import { type ModeEnv, prepareMode } from "../support/modes.js";

const PAIRS = EXPECTED_CURRENCIES.slice(0, 10).map((c) => `${c.id}-USD`);

/** Fires `total` requests at once, spread over the clients and one pair each in turn. */
async function burst(clients: TestClient[], total: number, pairs: string[]) {
  const responses = await Promise.all(
    Array.from({ length: total }, (_, i) =>
      clients[i % clients.length]!.get(
        `/api/exchange/prices?pairs=${pairs[Math.floor(i / clients.length) % pairs.length]}`,
      ),
    ),
  );
  return responses;
}

describe.each(["embedded", "postgres+redis"] as const)("exchange upstream rate limit (%s)", (modeName) => {
  let mode: ModeEnv;
  let fake: FakeExchange;
  let clients: TestClient[];

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    // The fake refuses a 4th request inside any second, so a slip would also show up as a 429.
    fake = await startFakeExchange({ rate: { requests: 3, windowMs: 1000 } });
    // With Redis, two instances share one budget; without, one instance has it to itself.
    const instances = modeName === "embedded" ? 1 : 2;
    clients = [];
    for (let i = 0; i < instances; i++) {
      const built = await mode.start({ exchange: fake.exchange });
      clients.push(await signedInClient(built.app));
    }
  });
  afterAll(async () => {
    await mode.teardown();
    await fake.close();
  });

  it("never lets more than 3 requests a second reach the exchange under a burst of 200 for 10 pairs", async () => {
    const responses = await burst(clients, 200, PAIRS);
    expect(responses.map((r) => r.status)).toEqual(Array(200).fill(200));
    expect(responses.every((r) => r.body[0].candles.length === 288)).toBe(true);
    const seen = await fake.requests();
    // Each instance loads each pair once; the rest share those loads.
    expect(seen).toHaveLength(10 * clients.length);
    expect(seen.every((r) => r.status === 200)).toBe(true);
    expect(maxInWindow(seen.map((r) => r.at))).toBe(3);
  });

  it("turns requests away with 503 and Retry-After once the queue is full, and bounds every wait", async () => {
    await fake.reset();
    // Slots of the burst above free a window after their answers; let them lapse first.
    await new Promise((r) => setTimeout(r, 1100));
    // A slow exchange holds each slot for two seconds, so the queue stays full for a while.
    await fake.configure({ rate: { requests: 3, windowMs: 1000 }, latencyMs: 2000 });
    // 20 pairs x 1y = 40 pages: 3 in flight, 30 waiting, the rest turned away.
    const many = [...PAIRS, ...PAIRS.map((p) => p.replace("-USD", "-EUR"))];
    const started = Date.now();
    const loads = Promise.all([
      clients[0]!.get(`/api/exchange/prices?pairs=${many.slice(0, 10).join(",")}&timeframe=1y`),
      clients.at(-1)!.get(`/api/exchange/prices?pairs=${many.slice(10).join(",")}&timeframe=1y`),
    ]);
    await new Promise((r) => setTimeout(r, 500));
    const refused = await clients[0]!.get("/api/exchange/currencies");
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe("service_unavailable");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);

    const responses = await loads;
    // A request whose every pair was turned away answers the 503 itself.
    for (const res of responses.filter((r) => r.status !== 200)) {
      expect(res.status).toBe(503);
      expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    }
    const results = responses.flatMap((r) =>
      r.status === 200 ? r.body : Array(10).fill({ error: { status: r.status } }),
    );
    const elapsed = Date.now() - started;
    const served = results.filter((e: { candles?: unknown[] }) => e.candles?.length === 365);
    const failed = results.filter((e: { error?: { status: number } }) => e.error?.status === 503);
    expect(served.length).toBeGreaterThan(0);
    expect(failed.length).toBeGreaterThan(0);
    expect(served.length + failed.length).toBe(20);
    // Waiting is bounded: 12 s for a slot, then the 2 s answer.
    expect(elapsed).toBeLessThan(16_000);
    const seen = await fake.requests();
    expect(seen.every((r) => r.status === 200)).toBe(true);
    expect(maxInWindow(seen.map((r) => r.at))).toBeLessThanOrEqual(3);
  }, 30_000);
});
