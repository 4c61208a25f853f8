/**
 * A map bounded by the bytes of what it holds: the oldest entries go first when a new one does not
 * fit, and an entry larger than a quarter of the bound is not kept at all (one huge answer must not
 * push out every other user's).
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: string, value: V, size: number) {
    this.delete(key);
    if (size > this.maxBytes / 4) return;
    while (this.bytes + size > this.maxBytes && this.entries.size > 0) {
      this.delete(this.entries.keys().next().value!);
    }
    this.entries.set(key, { value, size });
    this.bytes += size;
  }

  delete(key: string) {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.bytes -= old.size;
  }

  clear() {
    this.entries.clear();
    this.bytes = 0;
  }
}

/** What an answer of rows weighs in the cache: its JSON text, near enough for a bound. */
export const rowsSize = (key: string, rows: unknown[]) => key.length + JSON.stringify(rows).length;

/** What each instance may keep of its hot reads: a few hundred dashboards' widget lists. */
export const HOT_READ_CACHE_BYTES = 4 * 1024 * 1024;
