import { describe, expect, it } from "vitest";
import { type ContainerStatsSample, chooseApiVersion, cpuPercent, dockerTime, memoryUsed } from "./engine.js";

const sample = (over: Partial<ContainerStatsSample> = {}): ContainerStatsSample => ({
  cpu_stats: { cpu_usage: { total_usage: 3_000 }, system_cpu_usage: 20_000, online_cpus: 2 },
  precpu_stats: { cpu_usage: { total_usage: 1_000 }, system_cpu_usage: 10_000 },
  memory_stats: { usage: 1_000, limit: 4_000, stats: { inactive_file: 300 } },
  ...over,
});

describe("Docker stats as the docker CLI computes them", () => {
  it("CPU: the share of host time times the CPUs online; percpu_usage counts CPUs on old cgroup v1", () => {
    expect(cpuPercent(sample())).toBe(40);
    expect(
      cpuPercent(
        sample({
          cpu_stats: {
            cpu_usage: { total_usage: 3_000, percpu_usage: [1, 1, 1, 1] },
            system_cpu_usage: 20_000,
          },
        }),
      ),
    ).toBe(80);
  });

  it("CPU: unknown without a previous sample (one-shot), zero when the container did nothing", () => {
    expect(cpuPercent(sample({ precpu_stats: { cpu_usage: { total_usage: 0 } } }))).toBeNull();
    expect(
      cpuPercent(sample({ precpu_stats: { cpu_usage: { total_usage: 3_000 }, system_cpu_usage: 10_000 } })),
    ).toBe(0);
  });

  it("memory: usage without the page cache: total_inactive_file (v1), inactive_file (v2), cache (old v1)", () => {
    expect(memoryUsed(sample())).toBe(700);
    expect(
      memoryUsed(
        sample({ memory_stats: { usage: 1_000, stats: { total_inactive_file: 100, inactive_file: 300 } } }),
      ),
    ).toBe(900);
    expect(memoryUsed(sample({ memory_stats: { usage: 1_000, stats: { cache: 250 } } }))).toBe(750);
    // A cache figure above the usage (a kernel's rounding) is not subtracted.
    expect(memoryUsed(sample({ memory_stats: { usage: 1_000, stats: { inactive_file: 5_000 } } }))).toBe(
      1_000,
    );
    expect(memoryUsed(sample({ memory_stats: {} }))).toBeNull();
  });
});

describe("Docker Engine API details", () => {
  it("asks for the older of the engine's newest version and ours", () => {
    expect(chooseApiVersion("1.41")).toBe("1.41");
    expect(chooseApiVersion("1.52")).toBe("1.47");
    expect(chooseApiVersion("1.100")).toBe("1.47");
    expect(chooseApiVersion(null)).toBe("1.47");
    expect(chooseApiVersion("junk")).toBe("1.47");
  });

  it("reads Go's zero time as never", () => {
    expect(dockerTime("0001-01-01T00:00:00Z")).toBeNull();
    expect(dockerTime("2026-11-28T09:00:00.123456789Z")).toBe("2026-11-28T09:00:00.123Z");
    expect(dockerTime(undefined)).toBeNull();
  });
});
