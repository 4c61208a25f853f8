/**
 * Writes to one key, at most `width` at a time in this process, the others waiting in arrival
 * order (the patch route's use: why, and why two, is said there).
 */
export class Turns {
  private readonly lines = new Map<string, { running: number; waiting: (() => void)[] }>();

  constructor(private readonly width: number) {}

  async take<T>(key: string, task: () => Promise<T>): Promise<T> {
    let line = this.lines.get(key);
    if (!line) {
      line = { running: 0, waiting: [] };
      this.lines.set(key, line);
    }
    if (line.running < this.width) line.running++;
    else await new Promise<void>((resolve) => line.waiting.push(resolve));
    try {
      return await task();
    } finally {
      // A waiter takes over this slot; the last one out forgets the key.
      const next = line.waiting.shift();
      if (next) next();
      else if (--line.running === 0) this.lines.delete(key);
    }
  }
}
