import type { Redis } from "ioredis";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ServerState } from "../../src/server/http/lifecycle.js";
import { openRedis } from "../../src/server/redis/client.js";
import { watchRedisPersistence } from "../../src/server/redis/persistence.js";
import { REDIS_URL } from "../support/services.js";

describe("Redis persistence check", () => {
  let redis: Redis;
  let warned: string[];
  beforeEach(async () => {
    redis = await openRedis(REDIS_URL);
    warned = [];
  });
  afterEach(() => {
    vi.useRealTimers();
    redis.disconnect();
  });
  const log = () =>
    pino({ level: "warn" }, { write: (line: string) => void warned.push(JSON.parse(line).msg) });

  it("tries again when a check fails, so a busy start does not lose the warning", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    // CONFIG disabled (as on managed services), and the first INFO times out as on a loaded machine.
    vi.spyOn(redis, "config").mockRejectedValue(new Error("ERR unknown command 'CONFIG'"));
    const info = redis.info.bind(redis);
    const spy = vi
      .spyOn(redis, "info")
      .mockRejectedValueOnce(new Error("Command timed out"))
      .mockImplementation(((section: string) => info(section)) as typeof redis.info);
    const aof = /^aof_enabled:1\b/m.test(await info("persistence"));
    const state = new ServerState();
    const stop = watchRedisPersistence(redis, state, log());
    await vi.waitFor(() => expect(spy).toHaveBeenCalledTimes(1));
    expect(state.warnings).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    await vi.waitFor(() => expect(spy).toHaveBeenCalledTimes(2));
    if (aof) {
      // INFO shows AOF: nothing to warn about.
      await vi.waitFor(() => expect(spy.mock.results[1]?.type).toBe("return"));
      expect(state.warnings).toEqual([]);
    } else {
      await vi.waitFor(() =>
        expect(warned).toEqual([expect.stringContaining("Redis persistence is unknown")]),
      );
      expect(state.warnings).toEqual([expect.stringContaining("Redis persistence is unknown")]);
    }
    stop();
  });

  it("stops trying once the app closes", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    vi.spyOn(redis, "config").mockRejectedValue(new Error("Command timed out"));
    const spy = vi.spyOn(redis, "info").mockRejectedValue(new Error("Command timed out"));
    const stop = watchRedisPersistence(redis, new ServerState(), log());
    await vi.waitFor(() => expect(spy).toHaveBeenCalledTimes(1));
    await vi.advanceTimersByTimeAsync(1000);
    await vi.waitFor(() => expect(spy).toHaveBeenCalledTimes(2));
    stop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(spy).toHaveBeenCalledTimes(2);
  });
});
