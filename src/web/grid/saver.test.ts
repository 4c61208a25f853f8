import { describe, expect, it } from "vitest";
import { type SaveBody, WidgetSaver } from "./saver";

/** A hand-driven clock: timers run only when the test advances time. */
function fakeTimers() {
  let now = 0;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    setTimer: (fn: () => void, ms: number) => {
      const id = ++seq;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimer: (id: unknown) => void timers.delete(id as number),
    async advance(ms: number) {
      now += ms;
      for (const [id, t] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
        if (t.at <= now && timers.has(id)) {
          timers.delete(id);
          t.fn();
        }
      }
      // Let the sends' promises settle.
      for (let i = 0; i < 10; i++) await Promise.resolve();
    },
  };
}

const geo = (x: number) => ({ positionX: x, positionY: 0, width: 100, height: 100 });

describe("WidgetSaver", () => {
  it("waits for a quiet period and sends one request per changed widget with only its changes", async () => {
    const clock = fakeTimers();
    const sent: SaveBody[] = [];
    const saver = new WidgetSaver({ ...clock, delayMs: 500, send: async (b) => void sent.push(b) });
    saver.queue("a", { geometry: geo(20) });
    await clock.advance(300);
    saver.queue("a", { geometry: geo(40) });
    saver.queue("b", { config: { x: 1 } });
    await clock.advance(300);
    expect(sent).toEqual([]);
    await clock.advance(300);
    expect(sent).toEqual([
      { id: "a", positionX: 40, positionY: 0, width: 100, height: 100 },
      { id: "b", config: { x: 1 } },
    ]);
    expect(saver.hasPending()).toBe(false);
  });

  it("merges geometry and config of one widget into one request", async () => {
    const clock = fakeTimers();
    const sent: SaveBody[] = [];
    const saver = new WidgetSaver({ ...clock, send: async (b) => void sent.push(b) });
    saver.queue("a", { config: { n: 1 } });
    saver.queue("a", { geometry: geo(60) });
    saver.queue("a", { config: { n: 2 } });
    await clock.advance(1000);
    expect(sent).toEqual([
      { id: "a", positionX: 60, positionY: 0, width: 100, height: 100, config: { n: 2 } },
    ]);
  });

  it("keeps a failed change, reports the failure once, and retries until it is saved", async () => {
    const clock = fakeTimers();
    let fail = 2;
    const sent: SaveBody[] = [];
    const failures: unknown[] = [];
    const saver = new WidgetSaver({
      ...clock,
      retryDelaysMs: [1000, 2000],
      onFailure: (e) => failures.push(e),
      send: async (b) => {
        sent.push(b);
        if (fail-- > 0) throw new Error("offline");
      },
    });
    saver.queue("a", { config: { text: "hello" } });
    await clock.advance(500);
    expect(sent).toHaveLength(1);
    expect(saver.status()).toMatchObject({ pending: 1, failing: true });
    // A newer edit while failing is kept on top of the failed one.
    saver.queue("a", { config: { text: "hello world" } });
    await clock.advance(1000);
    expect(sent).toHaveLength(2);
    await clock.advance(2000);
    expect(sent).toHaveLength(3);
    expect(sent[2]).toEqual({ id: "a", config: { text: "hello world" } });
    expect(failures).toHaveLength(1);
    expect(saver.status()).toMatchObject({ pending: 0, failing: false });
  });

  it("drops changes the server rejects for good, and those of a deleted widget", async () => {
    const clock = fakeTimers();
    const sent: SaveBody[] = [];
    const saver = new WidgetSaver({
      ...clock,
      isPermanent: (e) => (e as Error).message === "404",
      send: async (b) => {
        sent.push(b);
        if (b.id === "gone") throw new Error("404");
      },
    });
    saver.queue("gone", { geometry: geo(0) });
    saver.queue("deleted", { geometry: geo(0) });
    saver.forget("deleted");
    await clock.advance(600);
    expect(sent.map((b) => b.id)).toEqual(["gone"]);
    expect(saver.status()).toMatchObject({ pending: 0, failing: false });
  });

  it("flush sends at once and settled resolves when everything is saved", async () => {
    const clock = fakeTimers();
    const sent: { body: SaveBody; keepalive: boolean }[] = [];
    const saver = new WidgetSaver({ ...clock, send: async (body, o) => void sent.push({ body, ...o }) });
    saver.queue("a", { geometry: geo(1) });
    const settled = saver.settled();
    await saver.flush({ keepalive: true });
    await settled;
    expect(sent).toEqual([{ body: { id: "a", ...geo(1) }, keepalive: true }]);
  });

  it("sends a widget's saves in order: a change made during a request waits for it", async () => {
    const clock = fakeTimers();
    const sent: SaveBody[] = [];
    let release: () => void = () => {};
    const saver = new WidgetSaver({
      ...clock,
      send: (b) => {
        sent.push(b);
        return sent.length === 1 ? new Promise<void>((r) => (release = r)) : Promise.resolve();
      },
    });
    saver.queue("a", { config: { v: 1 } });
    await clock.advance(500);
    saver.queue("a", { config: { v: 2 } });
    await clock.advance(500);
    expect(sent).toHaveLength(1);
    release();
    await clock.advance(0);
    await clock.advance(500);
    expect(sent.map((b) => b.config)).toEqual([{ v: 1 }, { v: 2 }]);
  });
});
