import { describe, expect, it } from "vitest";
import { type FairLimits, runFairly } from "./fair-pool.js";

/** Tasks that finish when the test says so, on a clock the test moves. */
function harness() {
  const time = { now: 0 };
  const started: string[] = [];
  const pending = new Map<string, () => void>();
  const done: { owner: string; ran: string[] }[] = [];
  let onDone: () => void = () => {};
  return {
    time,
    started,
    done,
    work: (item: string) =>
      new Promise<string>((resolve) => {
        started.push(item);
        pending.set(item, () => resolve(`checked ${item}`));
      }),
    finish(item: string) {
      pending.get(item)!();
      pending.delete(item);
    },
    ownerDone: async (owner: string, results: Map<string, string>) => {
      done.push({ owner, ran: [...results.keys()] });
      onDone();
    },
    /** Resolves once `count` owners are done. */
    doneCount: (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => done.length >= count && resolve();
        onDone = check;
        check();
      }),
    running: () => [...pending.keys()],
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("sharing a pass between owners", () => {
  const limits = (time: { now: number }, more: Partial<FairLimits> = {}): FairLimits => ({
    concurrency: 6,
    perOwner: 2,
    ownerBudgetMs: 1_000,
    deadline: 10_000,
    taskMs: 500,
    now: () => time.now,
    ...more,
  });

  it("gives another owner its slot and its result while one owner's tasks hang", async () => {
    const h = harness();
    const groups = new Map([
      ["a", ["a1", "a2", "a3", "a4", "a5"]],
      ["b", ["b1"]],
    ]);
    const run = runFairly(groups, limits(h.time), h.work, h.ownerDone);
    await tick();
    // The first wave goes round the owners; a's others wait for a's own slots, not b's.
    expect(h.started).toEqual(["a1", "b1", "a2"]);
    h.finish("b1");
    await h.doneCount(1);
    expect(h.done).toEqual([{ owner: "b", ran: ["b1"] }]);
    expect(h.running()).toEqual(["a1", "a2"]);
    for (const item of ["a1", "a2", "a3", "a4", "a5"]) {
      while (!h.running().includes(item)) await tick();
      h.finish(item);
    }
    await run;
    expect(h.done[1]).toEqual({ owner: "a", ran: ["a1", "a2", "a3", "a4", "a5"] });
  });

  it("stops starting an owner's tasks once its time is spent, and keeps what ran", async () => {
    const h = harness();
    const groups = new Map([
      ["a", ["a1", "a2", "a3", "a4"]],
      ["b", ["b1", "b2"]],
    ]);
    const run = runFairly(groups, limits(h.time), h.work, h.ownerDone);
    await tick();
    expect(h.started).toEqual(["a1", "b1", "a2", "b2"]);
    h.time.now = 600;
    h.finish("b1");
    h.finish("b2");
    h.finish("a1");
    await h.doneCount(1);
    // a has used 600 + 600 of its 1,000 ms (a2 still running): a3 does not start.
    expect(h.started).toEqual(["a1", "b1", "a2", "b2"]);
    h.finish("a2");
    await run;
    expect(h.done).toEqual([
      { owner: "b", ran: ["b1", "b2"] },
      { owner: "a", ran: ["a1", "a2"] },
    ]);
  });

  it("starts nothing that could not end by the deadline, and the least served owner first", async () => {
    const h = harness();
    const groups = new Map([
      ["a", ["a1", "a2", "a3"]],
      ["b", ["b1", "b2", "b3"]],
    ]);
    const run = runFairly(
      groups,
      limits(h.time, { concurrency: 1, perOwner: 1, ownerBudgetMs: 10_000, deadline: 1_000 }),
      h.work,
      h.ownerDone,
    );
    await tick();
    expect(h.started).toEqual(["a1"]);
    h.time.now = 100;
    h.finish("a1");
    while (h.started.length < 2) await tick();
    // b has had nothing yet: its turn, though a was first in line.
    expect(h.started).toEqual(["a1", "b1"]);
    h.time.now = 600;
    h.finish("b1");
    // 600 + 500 is past the deadline: the pass ends with what it has.
    await run;
    expect(h.started).toEqual(["a1", "b1"]);
    expect(h.done.map((d) => d.ran)).toEqual([["a1"], ["b1"]]);
  });

  it("counts a task that throws as not run, and reports an owner's failure after the others", async () => {
    const groups = new Map([
      ["a", ["boom", "fine"]],
      ["b", ["b1"]],
    ]);
    const seen: Record<string, string[]> = {};
    const run = runFairly(
      groups,
      limits({ now: 0 }),
      async (item) => {
        if (item === "boom") throw new Error("no");
        return item;
      },
      async (owner, results) => {
        seen[owner] = [...results.keys()];
        if (owner === "a") throw new Error("recording failed");
      },
    );
    await expect(run).rejects.toThrow("recording failed");
    expect(seen).toEqual({ a: ["fine"], b: ["b1"] });
  });
});
