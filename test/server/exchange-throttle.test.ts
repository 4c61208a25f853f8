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

// The queue bound, the give-up time and the arrival guarantee under any delays are checked on
// virtual time in exchange-throttle-model.test.ts; here the real thing, end to end.
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
});
