import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/server/config.js";
import { badRequest, unavailable } from "../../src/server/http/errors.js";
import { approximateBytes, type CacheRule, UpstreamCache } from "../../src/server/upstream/cache.js";

const rule = (over: Partial<CacheRule> = {}): CacheRule => ({
  freshMs: 100,
  failureMs: () => 0,
  staleIfErrorMs: 0,
  ...over,
});

/** A cache on a clock the test moves, so no test waits for time to pass. */
function setup() {
  const clock = { now: 0 };
  return { clock, cache: new UpstreamCache(() => clock.now) };
}

describe("the upstream cache", () => {
  it("shares one load among concurrent callers and serves it while fresh", async () => {
    const { clock, cache } = setup();
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const load = async () => {
      loads += 1;
      await gate;
      return loads;
    };
    const crowd = Array.from({ length: 50 }, () => cache.get("k", rule(), load));
    release();
    expect(new Set(await Promise.all(crowd))).toEqual(new Set([1]));
    clock.now = 99;
    expect(await cache.get("k", rule(), load)).toBe(1);
    clock.now = 100;
    expect(await cache.get("k", rule(), load)).toBe(2);
  });

  it("repeats a failure only as long as the rule says", async () => {
    const { clock, cache } = setup();
    let calls = 0;
    const remembered = rule({ failureMs: (e) => ((e as Error).message === "keep" ? 50 : 0) });
    const fail = (message: string) => async () => {
      calls += 1;
      throw new Error(message);
    };
    await expect(cache.get("a", remembered, fail("keep"))).rejects.toThrow("keep");
    await expect(cache.get("a", remembered, fail("keep"))).rejects.toThrow("keep");
    expect(calls).toBe(1);
    clock.now = 50;
    await expect(cache.get("a", remembered, fail("drop"))).rejects.toThrow("drop");
    await expect(cache.get("a", remembered, fail("drop"))).rejects.toThrow("drop");
    expect(calls).toBe(3);
  });

  it("serves the last good value while its upstream fails, within the stale window only", async () => {
    const { clock, cache } = setup();
    const stale = rule({ staleIfErrorMs: 1000, failureMs: () => 30 });
    expect(await cache.get("k", stale, async () => "good")).toBe("good");
    clock.now = 500;
    let calls = 0;
    const failing = async () => {
      calls += 1;
      throw badRequest("down");
    };
    expect(await cache.get("k", stale, failing)).toBe("good");
    // The failure is remembered: the stale value is served without asking again.
    expect(await cache.get("k", stale, failing)).toBe("good");
    expect(calls).toBe(1);
    clock.now = 1100;
    await expect(cache.get("k", stale, failing)).rejects.toThrow("down");
    // Without a stale window a failure is a failure.
    expect(await cache.get("j", rule(), async () => "good")).toBe("good");
    clock.now = 1300;
    await expect(cache.get("j", rule(), failing)).rejects.toThrow("down");
  });

  it("does not keep a value loaded across an invalidation", async () => {
    const { cache } = setup();
    let release!: (v: string) => void;
    const slow = cache.get("p|1", rule(), () => new Promise<string>((r) => (release = r)));
    cache.invalidate("p|");
    release("old");
    expect(await slow).toBe("old");
    expect(await cache.get("p|1", rule(), async () => "new")).toBe("new");
  });

  it("makes way for new keys past its bound, oldest first", async () => {
    const clock = { now: 0 };
    const cache = new UpstreamCache(() => clock.now, 2);
    for (const key of ["a", "b", "c"]) await cache.get(key, rule(), async () => key);
    let reloaded = false;
    await cache.get("a", rule(), async () => {
      reloaded = true;
      return "a";
    });
    expect(reloaded).toBe(true);
    expect(await cache.get("c", rule(), async () => "other")).toBe("c");
  });

  it("bounds what it holds in bytes too: the least recently stored make way", async () => {
    // Three feeds of 80 KB links held 244 MiB while the cache counted only entries.
    const clock = { now: 0 };
    const cache = new UpstreamCache(() => clock.now, 5000, 300_000);
    const big = (name: string) => ({ title: name, links: [name.repeat(100_000)] });
    for (const key of ["a", "b", "c"]) await cache.get(key, rule(), async () => big(key));
    expect(cache.heldBytes).toBeGreaterThan(200_000);
    expect(cache.heldBytes).toBeLessThanOrEqual(300_000);
    let loads = 0;
    const count = (key: string) => async () => {
      loads += 1;
      return big(key);
    };
    // "a" went to make room for "c"; "b" and "c" are still served without a load.
    await cache.get("c", rule(), count("c"));
    await cache.get("b", rule(), count("b"));
    expect(loads).toBe(0);
    await cache.get("a", rule(), count("a"));
    expect(loads).toBe(1);
    // Invalidation gives the bytes back.
    cache.invalidate("");
    expect(cache.heldBytes).toBe(0);
  });

  it("serves a value larger than its byte bound but does not keep it", async () => {
    const cache = new UpstreamCache(() => 0, 5000, 50_000);
    await cache.get("small", rule(), async () => "s");
    const held = cache.heldBytes;
    let loads = 0;
    const huge = async () => {
      loads += 1;
      return Buffer.alloc(60_000);
    };
    expect((await cache.get("huge", rule(), huge)).length).toBe(60_000);
    expect((await cache.get("huge", rule(), huge)).length).toBe(60_000);
    expect(loads).toBe(2);
    // Nothing else was pushed out for it.
    expect(cache.heldBytes).toBe(held);
    expect(await cache.get("small", rule(), async () => "other")).toBe("s");
  });

  it("counts binary by its bytes, strings by their length, and each value once", () => {
    expect(approximateBytes(Buffer.alloc(10_000))).toBeGreaterThanOrEqual(10_000);
    expect(approximateBytes(Buffer.alloc(10_000))).toBeLessThan(10_100);
    expect(approximateBytes({ type: "image/png", bytes: new Uint8Array(5000) })).toBeLessThan(5100);
    const shared = "x".repeat(10_000);
    const twice = approximateBytes([shared, shared]);
    expect(twice).toBeGreaterThanOrEqual(20_000);
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    expect(approximateBytes(cyclic)).toBeLessThan(200);
  });

  it("keeps nothing for a failure it does not repeat", async () => {
    const { cache } = setup();
    await expect(cache.get("k", rule(), async () => Promise.reject(unavailable("busy", 1)))).rejects.toThrow(
      "busy",
    );
    expect(await cache.get("k", rule(), async () => "ok")).toBe("ok");
  });
});

describe("upstream durations from the environment", () => {
  const env = {
    AUTH_SECRET: "x".repeat(40),
    TOKEN_ENCRYPTION_KEY: Buffer.alloc(32).toString("base64"),
    DATABASE_URL: "postgres://unused@127.0.0.1/unused",
  };

  it("reads each kind's freshness, the timeout and the failure window, with defaults", () => {
    const defaults = loadConfig(env).upstream;
    expect(defaults).toMatchObject({ timeoutMs: 5000, failureMs: 5000 });
    expect(defaults.freshMs).toMatchObject({ prices: 15_000, currencies: 300_000, providerData: 30_000 });
    const tuned = loadConfig({
      ...env,
      UPSTREAM_TIMEOUT_SECONDS: "8",
      CACHE_PRICES_SECONDS: "0",
      CACHE_PROVIDER_DATA_SECONDS: "90",
    }).upstream;
    expect(tuned.timeoutMs).toBe(8000);
    expect(tuned.freshMs.prices).toBe(0);
    expect(tuned.freshMs.providerData).toBe(90_000);
  });

  it("stops start-up on a bad value, naming the variable", () => {
    expect(() => loadConfig({ ...env, CACHE_MAIL_MESSAGE_SECONDS: "soon" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, UPSTREAM_TIMEOUT_SECONDS: "0" })).toThrow(
      /^UPSTREAM_TIMEOUT_SECONDS: /,
    );
  });
});
