import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createThrottle,
  DEFAULT_LIMITS,
  memorySlotStore,
  type ThrottleClock,
  throttleLimits,
} from "../../src/server/exchange/throttle.js";
import { ProblemError } from "../../src/server/http/errors.js";
import { maxInWindow } from "../fakes/exchange.js";

/**
 * Virtual time: sleeping registers a timer, and run() moves the clock from timer to timer, letting
 * every promise chain settle in between. Nothing waits on the wall clock, so the outcome depends on
 * the schedule alone, never on how loaded the machine is.
 */
class VirtualTime implements ThrottleClock {
  t = 0;
  private timers: { at: number; seq: number; wake: () => void }[] = [];
  private seq = 0;
  now = () => this.t;
  sleep = (ms: number) =>
    new Promise<void>((wake) => this.timers.push({ at: this.t + Math.max(0, ms), seq: this.seq++, wake }));
  private settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  async run() {
    await this.settle();
    while (this.timers.length > 0) {
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers.shift()!;
      this.t = Math.max(this.t, next.at);
      next.wake();
      await this.settle();
    }
  }
}

interface Trip {
  /** When the request wants a slot. */
  start: number;
  /** From sending to arriving at the exchange: the network and a busy event loop. */
  outbound: number;
  /** From arriving to our having the answer. */
  answer: number;
}

/**
 * Plays the requests through one throttle and answers when each reached the exchange. With a
 * `timeoutMs`, a request whose answer would take longer is given up on then (as the upstream
 * layer's deadline does), and it still arrives when its outbound trip ends.
 */
async function play(trips: Trip[], limits = DEFAULT_LIMITS, timeoutMs = Number.POSITIVE_INFINITY) {
  const time = new VirtualTime();
  const throttle = createThrottle(memorySlotStore(time.now), limits, time);
  const arrivals: number[] = [];
  const outcomes: ("served" | "refused")[] = [];
  const signal = new AbortController().signal;
  const all = trips.map(async (trip, i) => {
    await time.sleep(trip.start);
    try {
      const release = await throttle(signal);
      const arrived = time.sleep(trip.outbound).then(() => arrivals.push(time.t));
      if (trip.outbound + trip.answer <= timeoutMs) {
        await time.sleep(trip.outbound + trip.answer);
        release("answered");
      } else {
        await time.sleep(timeoutMs);
        release("unanswered");
      }
      await arrived;
      outcomes[i] = "served";
    } catch (error) {
      if (!(error instanceof ProblemError) || error.status !== 503) throw error;
      outcomes[i] = "refused";
    }
  });
  await time.run();
  await Promise.all(all);
  return { arrivals, outcomes };
}

const trip = fc.record({
  start: fc.integer({ min: 0, max: 3000 }),
  outbound: fc.integer({ min: 0, max: 900 }),
  answer: fc.integer({ min: 0, max: 2500 }),
});

describe("exchange throttle, on virtual time", () => {
  it("never lets more than 3 requests arrive at the exchange in any second, whatever the delays", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(trip, { minLength: 1, maxLength: 25 }), async (trips) => {
        const { arrivals, outcomes } = await play(trips);
        expect(maxInWindow(arrivals, 1000)).toBeLessThanOrEqual(3);
        // Nothing is lost: each request is either served or turned away with a 503.
        expect(outcomes.filter(Boolean)).toHaveLength(trips.length);
      }),
      { numRuns: 150 },
    );
  });

  it("holds to 3 a second when requests time out and reach the exchange after we gave up on them", async () => {
    // A short deadline, so most trips below outlast it. A request is taken to arrive within the
    // late margin (one deadline) after it was given up on: outbound trips up to twice the deadline.
    const timeoutMs = 1500;
    const limits = throttleLimits(timeoutMs);
    const lateTrip = fc.record({
      start: fc.integer({ min: 0, max: 6000 }),
      outbound: fc.integer({ min: 0, max: timeoutMs + limits.lateMs }),
      answer: fc.integer({ min: 0, max: 2500 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(lateTrip, { minLength: 1, maxLength: 25 }), async (trips) => {
        const { arrivals, outcomes } = await play(trips, limits, timeoutMs);
        expect(maxInWindow(arrivals, 1000)).toBeLessThanOrEqual(3);
        expect(outcomes.filter(Boolean)).toHaveLength(trips.length);
      }),
      { numRuns: 150 },
    );
  });

  it("turns requests away at once past the queue bound, and bounds every wait", async () => {
    // A slow exchange: 9 s an answer. 3 in flight, 30 waiting, the other 7 refused at once. The
    // slots free a window after the answers (10.06 s), so 3 waiting ones go; the other 27 give
    // up at maxWaitMs (12 s) instead of waiting on.
    const trips = Array.from({ length: 40 }, () => ({ start: 0, outbound: 10, answer: 9000 }));
    const { arrivals, outcomes } = await play(trips);
    expect(arrivals.slice(0, 3)).toEqual([10, 10, 10]);
    expect(arrivals).toHaveLength(6);
    expect(arrivals.slice(3).every((t) => t >= 10 + 9000 + DEFAULT_LIMITS.windowMs + 10)).toBe(true);
    expect(outcomes.slice(33).every((o) => o === "refused")).toBe(true);
    expect(outcomes.filter((o) => o === "served")).toHaveLength(6);
    expect(outcomes.filter((o) => o === "refused")).toHaveLength(34);
  });
});
