import { BoundedCache, rowsSize } from "../bounded-cache.js";

/**
 * Answers of the hot named reads (a dashboard's widgets, a dashboard list), kept while nothing has
 * been written. Sound only because the embedded database has exactly one client, this process:
 * every statement that is not a plain SELECT, every transaction and every migration passes
 * through `written()`, which moves the generation on and so retires every entry at once. A read
 * that was in flight while a write happened is not stored.
 */
export class ReadCache {
  private generation = 0;
  private readonly entries: BoundedCache<unknown[]>;

  constructor(maxBytes: number) {
    this.entries = new BoundedCache(maxBytes);
  }

  /** Whether `text` can change data (anything but a SELECT; a WITH may hide a write). */
  static isWrite(text: string): boolean {
    return !/^\s*select\b/i.test(text);
  }

  written() {
    this.generation++;
    this.entries.clear();
  }

  async read<T>(key: string, load: () => Promise<T[]>): Promise<T[]> {
    const hit = this.entries.get(key);
    if (hit) return hit as T[];
    const startedAt = this.generation;
    const rows = await load();
    if (this.generation === startedAt) this.entries.set(key, rows, rowsSize(key, rows));
    return rows;
  }
}
