import { describe, expect, it } from "vitest";
import { qbittorrentData, stateGroup } from "./torrents.js";

const transfer = { dl_info_speed: 10, up_info_speed: 5, dl_info_data: 100, up_info_data: 50 };
const torrent = (hash: string, state: string, progress: number, dlspeed: number, upspeed: number) => ({
  hash,
  name: hash,
  state,
  progress,
  dlspeed,
  upspeed,
  eta: 8_640_000,
  size: 1000,
});

describe("qBittorrent torrents", () => {
  it("reads 5.x states and 4.x's paused ones", () => {
    expect(stateGroup("stoppedDL")).toBe("stopped");
    expect(stateGroup("pausedUP")).toBe("stopped");
    expect(stateGroup("forcedUP")).toBe("seeding");
    expect(stateGroup("forcedMetaDL")).toBe("metadata");
    expect(stateGroup("checkingResumeData")).toBe("checking");
    expect(stateGroup("missingFiles")).toBe("error");
    expect(stateGroup("somethingNew")).toBe("unknown");
  });

  it("lists downloads first, fastest first, says 'at least' when the read was cut, and has no limits of 0", () => {
    const data = qbittorrentData(
      { ...transfer, dl_rate_limit: 0, up_rate_limit: 1024, connection_status: "weird" },
      [
        torrent("seed-fast", "uploading", 1, 0, 900),
        torrent("slow", "downloading", 0.5, 10, 0),
        torrent("seed-slow", "uploading", 1, 0, 100),
        torrent("fast", "forcedDL", 0.2, 500, 3),
      ],
      4,
    );
    expect(data.torrents.map((t) => t.hash)).toEqual(["fast", "slow", "seed-fast", "seed-slow"]);
    expect(data.torrents[0]!.eta).toBeNull();
    expect(data.counts).toEqual({ active: 4, downloading: 2, seeding: 2 });
    expect(data.countsAtLeast).toBe(true);
    expect(data.transfer).toMatchObject({ downloadLimit: null, uploadLimit: 1024, connection: "unknown" });
  });
});
