import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { registerSecret } from "../support/secrets.js";

export interface FakeSettings {
  /** "optional": requests without EX-ACCESS-KEY pass, as on the real public endpoints. */
  auth: "required" | "optional";
  /** How far the fake's clock runs ahead of ours, to provoke "request timestamp expired". */
  skewSeconds: number;
  /** Above this many requests in any window the fake answers 429, like the real exchange. */
  rate: { requests: number; windowMs: number };
  /** Delay before each answer, to make in-flight overlap observable. */
  latencyMs: number;
  /** Products whose market stands still at this price (every candle), for price-alert tests. */
  prices?: Record<string, number>;
}

export type Fault =
  | { kind: "status"; status: number; message?: string; retryAfter?: number }
  | { kind: "garbage"; body: string; contentType?: string }
  /** Accepts the request and never answers. */
  | { kind: "stall" }
  /** Sends headers and half a body, then nothing. */
  | { kind: "stall-body" };

export interface RecordedRequest {
  /** Arrival time at the fake, epoch milliseconds with fractions. */
  at: number;
  method: string;
  /** Path with query, exactly as sent. */
  url: string;
  /** What the fake answered; 0 when it never did. */
  status: number;
  /** The EX-ACCESS-* headers (and cache-control) as received. */
  headers: Record<string, string>;
}

export interface FakeExchange {
  url: string;
  /** Shaped as `config.exchange`, to pass to `mode.start({ exchange })`. */
  exchange: { url: string; clientId: string; clientSecret: string; passphrase: string };
  configure(settings: Partial<FakeSettings>): Promise<void>;
  /** The next `times` requests whose path starts with `path` get this fault. */
  fail(fault: Fault, options?: { times?: number; path?: string }): Promise<void>;
  heal(): Promise<void>;
  requests(): Promise<RecordedRequest[]>;
  /** Back to defaults, no faults, an empty log. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** The most arrivals inside any `windowMs`-long window (a sliding window, not calendar seconds). */
export function maxInWindow(times: number[], windowMs = 1000): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

/** A worker that runs a TypeScript module: tsx is registered inside it first. */
function tsWorker(entry: URL, workerData: unknown): Worker {
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve("tsx/esm/api")
      .replace(/\.cjs$/, ".mjs"),
  ).href;
  const code = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(code, { eval: true, workerData });
}

/** Starts the fake exchange on 127.0.0.1 with fresh credentials (registered as secrets). */
export async function startFakeExchange(settings: Partial<FakeSettings> = {}): Promise<FakeExchange> {
  const key = randomBytes(12).toString("hex");
  const secret = randomBytes(48).toString("base64");
  const passphrase = randomBytes(12).toString("base64url");
  registerSecret(secret);
  registerSecret(passphrase);

  const worker = tsWorker(new URL("./exchange-server.ts", import.meta.url), { key, secret, passphrase });
  worker.unref();
  const pending = new Map<number, (result: unknown) => void>();
  let nextId = 0;
  const port = await new Promise<number>((resolve, reject) => {
    worker.once("error", reject);
    worker.on("message", (message: { ready?: number; id?: number; result?: unknown }) => {
      if (message.ready !== undefined) resolve(message.ready);
      else pending.get(message.id!)?.(message.result);
    });
  });
  const call = (command: Record<string, unknown>) =>
    new Promise<any>((resolve) => {
      const id = ++nextId;
      pending.set(id, (result) => {
        pending.delete(id);
        resolve(result);
      });
      worker.postMessage({ id, command });
    });

  const url = `http://127.0.0.1:${port}`;
  const fake: FakeExchange = {
    url,
    exchange: { url, clientId: key, clientSecret: secret, passphrase },
    configure: (more) => call({ op: "configure", settings: more }),
    fail: (fault, { times = Number.POSITIVE_INFINITY, path = "/" } = {}) =>
      call({ op: "fail", fault, times, path }),
    heal: () => call({ op: "heal" }),
    requests: () => call({ op: "requests" }),
    reset: () => call({ op: "reset" }),
    async close() {
      await call({ op: "close" });
      await worker.terminate();
    },
  };
  if (Object.keys(settings).length > 0) await fake.configure(settings);
  return fake;
}
