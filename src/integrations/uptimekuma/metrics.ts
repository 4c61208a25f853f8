/**
 * Uptime Kuma's `/metrics` (Prometheus text format 0.0.4, written by prom-client), read for its
 * monitors: `monitor_status`, `monitor_response_time` and, from 2.3, `monitor_uptime_ratio` and
 * `monitor_response_time_seconds` per `window`. Everything else (process metrics, certificates)
 * is skipped. Bounded: the body is at most what the upstream layer reads (4 MiB), lines past
 * LINES_MAX are not looked at, and at most MONITORS_MAX monitors are kept.
 */

const LINES_MAX = 200_000;
const MONITORS_MAX = 2000;

/** One sample: its metric's name, its labels, its value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface MetricsMonitor {
  /** `monitor_id` (Uptime Kuma 2), else the monitor's name (1.x has no id label). */
  key: string;
  id: string | null;
  name: string;
  type: string | null;
  /** 0 down, 1 up, 2 pending, 3 maintenance; null when no `monitor_status` was given. */
  status: number | null;
  /** Milliseconds; null when Kuma wrote -1 (no ping) or nothing. */
  responseTimeMs: number | null;
  /** `monitor_uptime_ratio{window="1d"}`, 0 to 1. */
  uptime24h: number | null;
}

const ESCAPES: Record<string, string> = { "\\": "\\", '"': '"', n: "\n" };

/** `{a="x",b="y\"z"}` from `at` (the `{`): the labels and where the text after `}` starts; null when malformed. */
function readLabels(line: string, at: number): { labels: Record<string, string>; end: number } | null {
  // No prototype: a label named `__proto__` or `constructor` is just a label.
  const labels: Record<string, string> = Object.create(null);
  let i = at + 1;
  for (;;) {
    while (line[i] === " " || line[i] === ",") i++;
    if (line[i] === "}") return { labels, end: i + 1 };
    const eq = line.indexOf("=", i);
    if (eq < 0 || line[eq + 1] !== '"') return null;
    const name = line.slice(i, eq).trim();
    let value = "";
    i = eq + 2;
    for (;;) {
      const c = line[i];
      if (c === undefined) return null;
      if (c === '"') break;
      if (c === "\\") {
        const next = line[i + 1] ?? "";
        value += ESCAPES[next] ?? `\\${next}`;
        i += 2;
      } else {
        value += c;
        i++;
      }
    }
    if (name) labels[name] = value;
    i++;
  }
}

/** A sample's value: Prometheus writes NaN and ±Inf as words. */
function readValue(text: string): number | null {
  if (text === "NaN") return Number.NaN;
  if (text === "+Inf") return Number.POSITIVE_INFINITY;
  if (text === "-Inf") return Number.NEGATIVE_INFINITY;
  const value = Number(text);
  return text !== "" && Number.isFinite(value) ? value : null;
}

/** The samples of the metrics whose names `wanted` holds; malformed lines are skipped. */
export function* samples(text: string, wanted: ReadonlySet<string>): Generator<Sample> {
  let start = 0;
  for (let n = 0; n < LINES_MAX && start < text.length; n++) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end).trim();
    start = end + 1;
    if (line === "" || line.startsWith("#")) continue;
    const brace = line.indexOf("{");
    const space = line.indexOf(" ");
    const nameEnd = brace >= 0 && (space < 0 || brace < space) ? brace : space;
    if (nameEnd <= 0) continue;
    const name = line.slice(0, nameEnd);
    if (!wanted.has(name)) continue;
    let labels: Record<string, string> = {};
    let rest = line.slice(nameEnd);
    if (line[nameEnd] === "{") {
      const read = readLabels(line, nameEnd);
      if (!read) continue;
      labels = read.labels;
      rest = line.slice(read.end);
    }
    // The value, then an optional timestamp.
    const value = readValue(rest.trim().split(/\s+/)[0] ?? "");
    if (value === null) continue;
    yield { name, labels, value };
  }
}

const MONITOR_METRICS = new Set(["monitor_status", "monitor_response_time", "monitor_uptime_ratio"]);

/** The monitors the metrics describe, in the order Uptime Kuma lists them. */
export function monitorsFromMetrics(text: string): MetricsMonitor[] {
  const monitors = new Map<string, MetricsMonitor>();
  for (const { name, labels, value } of samples(text, MONITOR_METRICS)) {
    const monitorName = labels.monitor_name;
    if (monitorName === undefined) continue;
    const id = labels.monitor_id || null;
    const key = id ?? `name:${monitorName}`;
    let monitor = monitors.get(key);
    if (!monitor) {
      if (monitors.size >= MONITORS_MAX) continue;
      monitor = {
        key,
        id,
        name: monitorName,
        type: labels.monitor_type || null,
        status: null,
        responseTimeMs: null,
        uptime24h: null,
      };
      monitors.set(key, monitor);
    }
    if (!Number.isFinite(value)) continue;
    if (name === "monitor_status") monitor.status = value;
    else if (name === "monitor_response_time") monitor.responseTimeMs = value >= 0 ? value : null;
    else if (labels.window === "1d") monitor.uptime24h = Math.min(1, Math.max(0, value));
  }
  return [...monitors.values()];
}
