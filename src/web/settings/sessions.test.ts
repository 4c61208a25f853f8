import { describe, expect, it } from "vitest";
import type { DeviceSession } from "../lib/operators-api";
import { sortSessions } from "./SessionsTab";

const session = (id: string, current: boolean, lastActiveAt: string): DeviceSession => ({
  id,
  current,
  userAgent: null,
  ipAddress: null,
  createdAt: "2026-11-01T00:00:00.000Z",
  lastActiveAt,
  expiresAt: "2026-12-01T00:00:00.000Z",
});

describe("sortSessions", () => {
  it("puts this device first, then the most recently active", () => {
    const list = [
      session("old", false, "2026-11-20T10:00:00.000Z"),
      session("here", true, "2026-11-10T10:00:00.000Z"),
      session("recent", false, "2026-11-25T10:00:00.000Z"),
    ];
    expect(sortSessions(list).map((s) => s.id)).toEqual(["here", "recent", "old"]);
    expect(list[0]!.id).toBe("old");
  });
});
