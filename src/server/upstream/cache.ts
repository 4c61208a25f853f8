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

/**
 * What the cache may hold in all, by approximateBytes: a few hundred feeds, icons and price series,
 * a small part of the server's memory. Past it the least recently stored make way; a crowd that
 * wants more than this only costs upstream calls, never memory.
 */
export const CACHE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * About what a value holds, counted once when it is stored: strings and keys at their length (as
 * in JSON), binary at its byte length, a few bytes for each number, slot and object. It need not
 * be exact, only grow with what an upstream can make us hold (Buffers included, which JSON would
 * spell out as arrays of numbers).
 */
export function approximateBytes(value: unknown): number {
  let bytes = 0;
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "string") bytes += 16 + item.length;
    else if (item === null || typeof item !== "object") bytes += 8;
    else if (!seen.has(item)) {
      seen.add(item);
      if (ArrayBuffer.isView(item)) bytes += 16 + item.byteLength;
      else if (item instanceof ArrayBuffer) bytes += 16 + item.byteLength;
      else if (Array.isArray(item)) {
        bytes += 16 + 8 * item.length;
        for (const each of item) stack.push(each);
      } else if (item instanceof Map || item instanceof Set) {
        bytes += 16;
        for (const each of item) stack.push(each);
      } else {
        bytes += 16;
        for (const [key, each] of Object.entries(item)) {
          bytes += 8 + key.length;
          stack.push(each);
        }
      }
    }
  }
  return bytes;
}

/** A value as the cache served it: when it was loaded, and whether it stands in for a failure. */
export interface Answer<T> {
  value: T;
  fetchedAt: number;
  /** The upstream failed and this older value, within its stale-if-error window, stands in. */
  stale: boolean;
}

interface Entry {
  value?: unknown;
  has: boolean;
  /** When the value was stored. */
  fetchedAt: number;
  /** approximateBytes of the value and key, counted when stored. */
  bytes: number;
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
 * Keys and values come from user input (a feed's address, what it serves), so the least recently
 * stored entries make way past `maxEntries` or `maxBytes`, and a value larger than `maxBytes` alone
 * is served to its callers but not kept.
 */
export class UpstreamCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private bytes = 0;
  /** Bumped by invalidate(), so a load that began before a write cannot store what it read. */
  private generation = 0;

  constructor(
    private readonly now: Clock = Date.now,
    private readonly maxEntries = 5000,
    private readonly maxBytes = CACHE_MAX_BYTES,
  ) {}

  get<T>(key: string, rule: CacheRule, load: () => Promise<T>): Promise<T> {
    return this.answer(key, rule, load).then(({ value }) => value);
  }

  /** As get(), saying when the value was loaded and whether it stands in for a failure. */
  answer<T>(key: string, rule: CacheRule, load: () => Promise<T>): Promise<Answer<T>> {
    const t = this.now();
    const entry = this.entries.get(key);
    if (entry?.has && entry.freshUntil > t)
      return Promise.resolve({ value: entry.value as T, fetchedAt: entry.fetchedAt, stale: false });
    if (entry && entry.failedUntil > t) return this.fallback(entry, t, entry.error);
    const running = this.inFlight.get(key);
    if (running) return running as Promise<Answer<T>>;

    const startedIn = this.generation;
    const promise: Promise<Answer<T>> = load().then(
      (value) => {
        const at = this.now();
        this.settle(key, promise, startedIn, {
          value,
          has: true,
          fetchedAt: at,
          bytes: 64 + key.length + approximateBytes(value),
          freshUntil: at + rule.freshMs,
          staleUntil: at + rule.freshMs + rule.staleIfErrorMs,
          failedUntil: 0,
        });
        return { value, fetchedAt: at, stale: false };
      },
      (error: unknown) => {
        const last = this.entries.get(key);
        const at = this.now();
        this.settle(key, promise, startedIn, {
          ...(last ?? { has: false, fetchedAt: 0, bytes: 64 + key.length, freshUntil: 0, staleUntil: 0 }),
          error,
          failedUntil: at + rule.failureMs(error),
        });
        return this.fallback<T>(last, at, error);
      },
    );
    this.inFlight.set(key, promise);
    return promise;
  }

  /** Drops every entry whose key starts with `prefix` (after a write that changes what they show). */
  invalidate(prefix: string) {
    this.generation++;
    for (const key of this.inFlight.keys()) if (key.startsWith(prefix)) this.inFlight.delete(key);
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.drop(key);
  }

  clear() {
    this.entries.clear();
    this.bytes = 0;
  }

  /** What the entries hold by approximateBytes (for tests and measurements). */
  get heldBytes() {
    return this.bytes;
  }

  private drop(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  /** The last good value while it may stand in for a failure, else the failure. */
  private fallback<T>(entry: Entry | undefined, t: number, error: unknown): Promise<Answer<T>> {
    if (entry?.has && entry.staleUntil > t)
      return Promise.resolve({ value: entry.value as T, fetchedAt: entry.fetchedAt, stale: true });
    return Promise.reject(error);
  }

  private settle(key: string, promise: Promise<unknown>, startedIn: number, entry: Entry) {
    if (this.inFlight.get(key) === promise) this.inFlight.delete(key);
    if (startedIn !== this.generation) return;
    this.drop(key);
    // Nothing worth keeping: no value to fall back on and no failure to repeat.
    if (!entry.has && entry.failedUntil <= this.now()) return;
    if (entry.bytes > this.maxBytes) return;
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.drop(oldest);
    }
  }
}
