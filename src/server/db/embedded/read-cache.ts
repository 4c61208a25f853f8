/**
 * Answers of the hot named reads (a dashboard's widgets, a dashboard list), kept while nothing has
 * been written. Sound only because the embedded database has exactly one client, this process:
 * every statement that is not a plain SELECT, every transaction and every migration passes
 * through `written()`, which moves the generation on and so retires every entry at once. A read
 * that was in flight while a write happened is not stored.
 */
export class ReadCache {
  private generation = 0;
  private readonly entries = new Map<string, { generation: number; rows: unknown[]; size: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** Whether `text` can change data (anything but a SELECT; a WITH may hide a write). */
  static isWrite(text: string): boolean {
    return !/^\s*select\b/i.test(text);
  }

  written() {
    this.generation++;
    this.entries.clear();
    this.bytes = 0;
  }

  async read<T>(key: string, load: () => Promise<T[]>): Promise<T[]> {
    const hit = this.entries.get(key);
    if (hit && hit.generation === this.generation) return hit.rows as T[];
    const startedAt = this.generation;
    const rows = await load();
    if (this.generation === startedAt) this.store(key, rows);
    return rows;
  }

  private store(key: string, rows: unknown[]) {
    const size = key.length + JSON.stringify(rows).length;
    if (size > this.maxBytes / 4) return;
    const old = this.entries.get(key);
    if (old) this.bytes -= old.size;
    while (this.bytes + size > this.maxBytes && this.entries.size > 0) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.entries.delete(oldestKey);
      this.bytes -= oldest.size;
    }
    this.entries.set(key, { generation: this.generation, rows, size });
    this.bytes += size;
  }
}
