/** Milliseconds since the epoch; injected so tests move time instead of waiting for it. */
export type Clock = () => number;

export interface CacheRule {
  /** How long a loaded value is served without asking again. */
  freshMs: number;
  /** How long a failure is repeated without asking again (0: every caller asks anew). */
  failureMs(error: unknown): number;
  /** How long past freshness the last good value is served when asking again fails. */
  staleIfErrorMs: number;
}

interface Entry {
  value?: unknown;
  has: boolean;
  freshUntil: number;
  staleUntil: number;
  error?: unknown;
  failedUntil: number;
}

/**
 * The one cache in front of every outside call, per app instance:
 * - single flight: callers asking for a key while it loads share that load;
 * - freshness: callers within the window share its outcome, so a crowd costs one upstream call;
 * - failure TTL: a failing upstream is asked again after a while, not by every waiting widget;
 * - stale-if-error: where a rule allows, the last good value outlives a failing upstream.
 * Keys come from user input, so the least recently stored entries make way past `maxEntries`.
 */
export class UpstreamCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /** Bumped by invalidate(), so a load that began before a write cannot store what it read. */
  private generation = 0;

  constructor(
    private readonly now: Clock = Date.now,
    private readonly maxEntries = 5000,
  ) {}

  get<T>(key: string, rule: CacheRule, load: () => Promise<T>): Promise<T> {
    const t = this.now();
    const entry = this.entries.get(key);
    if (entry?.has && entry.freshUntil > t) return Promise.resolve(entry.value as T);
    if (entry && entry.failedUntil > t) return this.fallback(entry, t, entry.error);
    const running = this.inFlight.get(key);
    if (running) return running as Promise<T>;

    const startedIn = this.generation;
    const promise = load().then(
      (value) => {
        this.settle(key, promise, startedIn, (at) => ({
          value,
          has: true,
          freshUntil: at + rule.freshMs,
          staleUntil: at + rule.freshMs + rule.staleIfErrorMs,
          failedUntil: 0,
        }));
        return value;
      },
      (error: unknown) => {
        const last = this.entries.get(key);
        this.settle(key, promise, startedIn, (at) => ({
          ...(last ?? { has: false, freshUntil: 0, staleUntil: 0 }),
          error,
          failedUntil: at + rule.failureMs(error),
        }));
        return this.fallback(last, this.now(), error) as Promise<T>;
      },
    );
    this.inFlight.set(key, promise);
    return promise;
  }

  /** Drops every entry whose key starts with `prefix` (after a write that changes what they show). */
  invalidate(prefix: string) {
    this.generation++;
    for (const key of this.inFlight.keys()) if (key.startsWith(prefix)) this.inFlight.delete(key);
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  clear() {
    this.entries.clear();
  }

  /** The last good value while it may stand in for a failure, else the failure. */
  private fallback<T>(entry: Entry | undefined, t: number, error: unknown): Promise<T> {
    if (entry?.has && entry.staleUntil > t) return Promise.resolve(entry.value as T);
    return Promise.reject(error);
  }

  private settle(key: string, promise: Promise<unknown>, startedIn: number, make: (at: number) => Entry) {
    if (this.inFlight.get(key) === promise) this.inFlight.delete(key);
    if (startedIn !== this.generation) return;
    const entry = make(this.now());
    this.entries.delete(key);
    // Nothing worth keeping: no value to fall back on and no failure to repeat.
    if (!entry.has && entry.failedUntil <= this.now()) return;
    this.entries.set(key, entry);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }
}
