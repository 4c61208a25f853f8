import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HeartbeatRing } from "./heartbeat-ring.js";

describe("HeartbeatRing", () => {
  it("visits every item exactly once per lap, a slice per tick", () => {
    const ring = new HeartbeatRing<number>(4);
    for (let i = 0; i < 10; i++) ring.add(i);
    const lap = Array.from({ length: 4 }, () => ring.next());
    expect(lap.map((t) => t.lapStarts)).toEqual([true, false, false, false]);
    expect(lap.flatMap((t) => t.due).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(Math.max(...lap.map((t) => t.due.length))).toBe(3);
    expect(ring.next().lapStarts).toBe(true);
  });

  it("keeps slices even and visits each remaining item once per lap whatever comes and goes", () => {
    const op = fc.oneof(
      fc.record({ add: fc.integer({ min: 0, max: 200 }) }),
      fc.record({ remove: fc.integer({ min: 0, max: 200 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.array(op, { maxLength: 400 }), (slices, ops) => {
        const ring = new HeartbeatRing<number>(slices);
        const live = new Set<number>();
        for (const o of ops) {
          if ("add" in o) {
            ring.add(o.add);
            live.add(o.add);
          } else {
            ring.remove(o.remove);
            live.delete(o.remove);
          }
        }
        expect(ring.size).toBe(live.size);
        // Where the ring stands does not matter: any `slices` consecutive ticks make one lap.
        const seen = Array.from({ length: slices }, () => ring.next().due);
        expect(seen.flat().sort((a, b) => a - b)).toEqual([...live].sort((a, b) => a - b));
        // Adds fill the emptiest slice: without removals, slices differ by one at most.
        if (ops.every((o) => "add" in o)) {
          const sizes = seen.map((d) => d.length);
          expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it("lets a visit remove the item it visits", () => {
    const ring = new HeartbeatRing<string>(1);
    ring.add("a");
    ring.add("b");
    for (const item of ring.next().due) ring.remove(item);
    expect(ring.size).toBe(0);
  });
});
