import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { localDay, msUntilLocalTime, pruneReminderMarks, remindOnce } from "./reminders";

/** localStorage as two tabs of one browser share it. */
class MemoryStorage {
  private map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, v);
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}

const globals = globalThis as unknown as { localStorage?: MemoryStorage };

describe("reminders", () => {
  beforeEach(() => {
    globals.localStorage = new MemoryStorage();
  });
  afterEach(() => {
    delete globals.localStorage;
  });

  it("sends a reminder once, however many tabs notice the moment", async () => {
    let sent = 0;
    const send = async () => {
      sent++;
    };
    const results = await Promise.all([
      remindOnce("countdown:w1:t", send),
      remindOnce("countdown:w1:t", send),
    ]);
    expect(sent).toBe(1);
    expect(results.sort()).toEqual([false, true]);
    expect(await remindOnce("countdown:w1:t", send)).toBe(false);
    expect(await remindOnce("countdown:w2:t", send)).toBe(true);
    expect(sent).toBe(2);
  });

  it("releases the reminder when sending fails, so a later attempt can send it", async () => {
    await expect(remindOnce("todo:w:day", () => Promise.reject(new Error("offline")))).rejects.toThrow(
      "offline",
    );
    let sent = 0;
    expect(
      await remindOnce("todo:w:day", async () => {
        sent++;
      }),
    ).toBe(true);
    expect(sent).toBe(1);
  });

  it("forgets marks older than a month", async () => {
    await remindOnce("old", async () => {});
    await remindOnce("new", async () => {});
    const storage = globals.localStorage!;
    storage.setItem("tessera:reminder:old", String(Date.now() - 40 * 24 * 3600 * 1000));
    storage.setItem("unrelated", "kept");
    pruneReminderMarks();
    expect(storage.getItem("tessera:reminder:old")).toBeNull();
    expect(storage.getItem("tessera:reminder:new")).not.toBeNull();
    expect(storage.getItem("unrelated")).toBe("kept");
  });

  it("computes the local day and the time until a wall-clock time", () => {
    const now = new Date(2026, 2, 2, 17, 30, 0);
    expect(localDay(now)).toBe("2026-03-02");
    expect(msUntilLocalTime("18:00", now)).toBe(30 * 60 * 1000);
    expect(msUntilLocalTime("09:00", now)).toBeLessThan(0);
  });
});
