import { describe, expect, it } from "vitest";
import { fromStatusPage, HeartbeatAnswer, kumaInstant, StatusPageAnswer } from "./status-page.js";

const answer = { service: "Kuma", what: "the status page" };

describe("Uptime Kuma status pages", () => {
  it("reads Kuma's UTC times without a zone, and ISO times with one", () => {
    expect(kumaInstant("2026-11-27 20:00:00.123")).toBe("2026-11-27T20:00:00.123Z");
    expect(kumaInstant("2026-11-27 20:00:00")).toBe("2026-11-27T20:00:00.000Z");
    expect(kumaInstant("2026-11-27T21:00:00.000+01:00")).toBe("2026-11-27T20:00:00.000Z");
    expect(kumaInstant("yesterday")).toBeNull();
    expect(kumaInstant(null)).toBeNull();
  });

  it("reads the main branch's shapes: uptime by id, summed beats with empty buckets", () => {
    const page = StatusPageAnswer.parse(
      {
        config: { title: "Lab" },
        incidents: [],
        publicGroupList: [{ name: "Core", monitorList: [{ id: 7, name: "DNS", type: "dns" }] }],
        maintenanceList: [],
      },
      answer,
    );
    const beats = HeartbeatAnswer.parse(
      {
        heartbeatList: {
          7: [{ status: 1, time: "2026-11-27T19:00:00.000Z", msg: "", ping: null }, 0, 0],
        },
        uptimeList: { 7: 0.5 },
      },
      answer,
    );
    expect(fromStatusPage(page, beats, 10).monitors).toEqual([
      {
        id: "7",
        name: "DNS",
        group: "Core",
        type: "dns",
        status: "up",
        responseTimeMs: null,
        uptime24h: 0.5,
        lastBeatAt: "2026-11-27T19:00:00.000Z",
      },
    ]);
  });

  it("cuts a long page to the limit, counting all, and reads a monitor without beats as unknown", () => {
    const monitorList = Array.from({ length: 12 }, (_, i) => ({ id: i + 1, name: `M${i + 1}` }));
    const page = StatusPageAnswer.parse(
      { config: {}, incident: null, publicGroupList: [{ name: null, monitorList }] },
      answer,
    );
    const data = fromStatusPage(
      page,
      HeartbeatAnswer.parse({ heartbeatList: {}, uptimeList: {} }, answer),
      10,
    );
    expect(data.monitors).toHaveLength(10);
    expect(data.monitorsTotal).toBe(12);
    expect(data.summary.unknown).toBe(12);
    expect(data.monitors[0]).toMatchObject({
      group: null,
      status: "unknown",
      uptime24h: null,
      lastBeatAt: null,
    });
    expect(data.title).toBeNull();
    expect(data.incidents).toEqual([]);
  });
});
