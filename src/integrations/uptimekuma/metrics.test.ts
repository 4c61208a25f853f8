import { describe, expect, it } from "vitest";
import { monitorsFromMetrics, samples } from "./metrics.js";

/** As prom-client writes Uptime Kuma 2.3's metrics: help, type, tags before the monitor labels. */
const V2 = `# HELP process_cpu_user_seconds_total Total user CPU time spent in seconds.
# TYPE process_cpu_user_seconds_total counter
process_cpu_user_seconds_total 12.5
# HELP monitor_status Monitor Status (1 = UP, 0= DOWN, 2= PENDING, 3= MAINTENANCE)
# TYPE monitor_status gauge
monitor_status{env="prod",monitor_id="1",monitor_name="Jellyfin",monitor_type="http",monitor_url="https://jf.lan/",monitor_hostname="null",monitor_port="null"} 1
monitor_status{monitor_id="2",monitor_name="Say \\"hi\\", then\\\\go",monitor_type="ping",monitor_url="https://",monitor_hostname="nas.lan",monitor_port="null"} 0
monitor_status{monitor_id="3",monitor_name="Backup",monitor_type="push",monitor_url="https://",monitor_hostname="null",monitor_port="null"} 2
# HELP monitor_response_time Monitor Response Time (ms)
# TYPE monitor_response_time gauge
monitor_response_time{env="prod",monitor_id="1",monitor_name="Jellyfin",monitor_type="http",monitor_url="https://jf.lan/",monitor_hostname="null",monitor_port="null"} 42
monitor_response_time{monitor_id="2",monitor_name="Say \\"hi\\", then\\\\go",monitor_type="ping",monitor_url="https://",monitor_hostname="nas.lan",monitor_port="null"} -1
# HELP monitor_uptime_ratio Uptime ratio calculated over sliding window specified by the 'window' label. (0.0 - 1.0)
# TYPE monitor_uptime_ratio gauge
monitor_uptime_ratio{monitor_id="1",monitor_name="Jellyfin",monitor_type="http",monitor_url="https://jf.lan/",monitor_hostname="null",monitor_port="null",window="1d"} 0.9987
monitor_uptime_ratio{monitor_id="1",monitor_name="Jellyfin",monitor_type="http",monitor_url="https://jf.lan/",monitor_hostname="null",monitor_port="null",window="30d"} 0.95
`;

/** 1.x: no monitor_id label, no uptime ratio; the name is the key. */
const V1 = `monitor_status{monitor_name="Jellyfin",monitor_type="http",monitor_url="https://jf.lan/",monitor_hostname="null",monitor_port="null"} 1
monitor_response_time{monitor_name="Jellyfin",monitor_type="http",monitor_url="https://jf.lan/",monitor_hostname="null",monitor_port="null"} 37
monitor_status{monitor_name="Printer",monitor_type="port",monitor_url="https://",monitor_hostname="printer.lan",monitor_port="631"} 3
`;

describe("Uptime Kuma's metrics", () => {
  it("reads each monitor's status, response time and 24 h uptime (2.x)", () => {
    expect(monitorsFromMetrics(V2)).toEqual([
      {
        key: "1",
        id: "1",
        name: "Jellyfin",
        type: "http",
        status: 1,
        responseTimeMs: 42,
        uptime24h: 0.9987,
      },
      {
        key: "2",
        id: "2",
        name: 'Say "hi", then\\go',
        type: "ping",
        status: 0,
        responseTimeMs: null,
        uptime24h: null,
      },
      { key: "3", id: "3", name: "Backup", type: "push", status: 2, responseTimeMs: null, uptime24h: null },
    ]);
  });

  it("keys 1.x monitors by name, which is all it has", () => {
    expect(monitorsFromMetrics(V1).map((m) => [m.key, m.id, m.status, m.responseTimeMs])).toEqual([
      ["name:Jellyfin", null, 1, 37],
      ["name:Printer", null, 3, null],
    ]);
  });

  it("skips what it cannot read and survives hostile text", () => {
    const text = [
      'monitor_status{monitor_name="Broken} 1',
      "monitor_status{monitor_name=unquoted} 1",
      'monitor_status{monitor_name="NoValue"}',
      'monitor_status{monitor_name="Words"} up',
      'monitor_status{__proto__="x",constructor="y",monitor_name="Odd"} 1 1712345678000',
      'monitor_status_total{monitor_name="Other metric"} 1',
      "monitor_status 1",
      "",
    ].join("\n");
    expect(monitorsFromMetrics(text)).toEqual([
      expect.objectContaining({ key: "name:Odd", name: "Odd", status: 1 }),
    ]);
    expect([...samples("a NaN\nb +Inf\nc 3 17\n", new Set(["a", "b", "c"]))].map((s) => s.value)).toEqual([
      Number.NaN,
      Number.POSITIVE_INFINITY,
      3,
    ]);
    // A long body of one label that never closes ends at once, quadratic nowhere.
    const started = performance.now();
    monitorsFromMetrics(`monitor_status{monitor_name="${"x".repeat(2_000_000)}`);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
