interface Entry {
  value: unknown;
  expiresAt: number;
}

/**
 * A short-lived in-process cache with single-flight loading: concurrent requests for the same
 * key share one upstream call, and its result serves everyone for `ttlMs`. Failures are not
 * kept, so the next request tries again. One instance per app; nothing global.
 */
export class TtlCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<unknown>>();
  /** Bumped by invalidate(), so a load that began before a write cannot store what it read. */
  private generation = 0;

  constructor(private readonly maxEntries = 5000) {}

  async get<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > Date.now()) return hit.value as T;
    if (hit) this.entries.delete(key);
    const pending = this.inflight.get(key);
    if (pending) return pending as Promise<T>;

    const startedIn = this.generation;
    const promise = load()
      .then((value) => {
        if (startedIn !== this.generation) return value;
        if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
        this.entries.set(key, { value, expiresAt: Date.now() + ttlMs });
        return value;
      })
      .finally(() => {
        if (this.inflight.get(key) === promise) this.inflight.delete(key);
      });
    this.inflight.set(key, promise);
    return promise;
  }

  /** Drops every entry whose key starts with `prefix` (after a write that changes what they show). */
  invalidate(prefix: string) {
    this.generation++;
    for (const key of this.inflight.keys()) if (key.startsWith(prefix)) this.inflight.delete(key);
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  clear() {
    this.entries.clear();
  }
}
