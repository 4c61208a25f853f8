import { describe, expect, it } from "vitest";
import { initialOfflineState, isOffline, nextOfflineState, type OfflineEvent } from "./offline-state";

const run = (online: boolean, ...events: OfflineEvent[]) =>
  events.reduce(nextOfflineState, initialOfflineState(online));

describe("the page's offline state", () => {
  it("is offline while the browser says so, with the time of the newest data once read", () => {
    const offline = run(true, { type: "browser-offline" });
    expect(isOffline(offline)).toBe(true);
    expect(offline.loadedAtRead).toBe(false);
    const read = nextOfflineState(offline, { type: "last-loaded", at: 1_000 });
    expect(read).toMatchObject({ loadedAt: 1_000, loadedAtRead: true });
    const back = nextOfflineState(read, { type: "browser-online" });
    expect(isOffline(back)).toBe(false);
    expect(back).toMatchObject({ loadedAt: null, loadedAtRead: false });
  });

  it("is offline while the worker answers with copies, although the browser is online", () => {
    const onCopies = run(
      true,
      { type: "copy-served", storedAt: 500 },
      { type: "copy-served", storedAt: 700 },
    );
    expect(isOffline(onCopies)).toBe(true);
    expect(onCopies.loadedAt).toBe(700);
    // The meta entry may be older than a copy just served: the newest time wins.
    expect(nextOfflineState(onCopies, { type: "last-loaded", at: 600 }).loadedAt).toBe(700);
    expect(isOffline(nextOfflineState(onCopies, { type: "network-answered" }))).toBe(false);
  });

  it("stays offline while the browser is, whatever the worker says", () => {
    const state = run(false, { type: "copy-served", storedAt: 500 }, { type: "network-answered" });
    expect(isOffline(state)).toBe(true);
    expect(isOffline(nextOfflineState(state, { type: "browser-online" }))).toBe(false);
  });

  it("says nothing of a time when nothing was recorded", () => {
    const state = run(
      false,
      { type: "last-loaded", at: null },
      { type: "copy-served", storedAt: Number.NaN },
    );
    expect(state).toMatchObject({ loadedAt: null, loadedAtRead: true });
  });
});
