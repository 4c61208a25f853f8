import { describe, expect, it } from "vitest";
import { QueueAnswer, queueEntries, queueState, timeSpanSeconds } from "./queue.js";

const answer = { service: "Sonarr", what: "its queue" };

describe("Sonarr's and Radarr's queue", () => {
  it("reads .NET's TimeSpan, days and fractions included", () => {
    expect(timeSpanSeconds("00:12:30")).toBe(750);
    expect(timeSpanSeconds("1.02:03:04")).toBe(93_784);
    expect(timeSpanSeconds("00:00:05.1234567")).toBe(5);
    expect(timeSpanSeconds("-00:01:00")).toBe(0);
    expect(timeSpanSeconds("soon")).toBeNull();
    expect(timeSpanSeconds(undefined)).toBeNull();
  });

  it("says what happens to a download: the tracked state first, then the queue status", () => {
    expect(queueState("completed", "importBlocked")).toBe("importBlocked");
    expect(queueState("completed", "downloading")).toBe("importPending");
    expect(queueState("downloading", "failedPending")).toBe("failed");
    expect(queueState("delay", null)).toBe("delayed");
    expect(queueState("downloadClientUnavailable", undefined)).toBe("clientUnavailable");
    expect(queueState("somethingNew", "somethingElse")).toBe("unknown");
  });

  it("reads the later spellings, records without sizes, and keeps the worst health of a pack", () => {
    const page = QueueAnswer.parse(
      {
        page: 1,
        pageSize: 50,
        totalRecords: 3,
        records: [
          {
            id: 1,
            downloadId: "x",
            size: 100,
            sizeLeft: 25,
            timeLeft: "00:01:00",
            trackedDownloadStatus: "ok",
          },
          {
            id: 2,
            downloadId: "x",
            size: 100,
            sizeLeft: 25,
            trackedDownloadStatus: "error",
            statusMessages: [{ title: "file.mkv", messages: [] }],
          },
          { id: 3, title: "Bare", status: "queued" },
        ],
      },
      answer,
    );
    const entries = queueEntries(page.records, "i");
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      id: "x",
      progress: 0.75,
      timeLeftSeconds: 60,
      health: "error",
      messages: ["file.mkv"],
    });
    expect(entries[1]).toMatchObject({
      id: "record-3",
      title: "Bare",
      progress: null,
      state: "queued",
      health: "ok",
    });
  });
});
