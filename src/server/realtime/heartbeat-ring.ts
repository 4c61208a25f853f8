/**
 * Spreads a periodic pass over many items across `slices` ticks: each tick visits one slice, so
 * every item is visited once per lap while no tick does more than its share. With 10,000 open
 * streams, one pass writing to all of them held the event loop for about 300 ms every 20 s
 * (issue 36); a twentieth of them per second holds it for about 15 ms.
 */
export class HeartbeatRing<T> {
  private readonly slices: Set<T>[];
  private readonly sliceOf = new Map<T, number>();
  private tick = 0;

  constructor(readonly sliceCount: number) {
    if (!Number.isInteger(sliceCount) || sliceCount < 1) throw new RangeError("sliceCount must be >= 1");
    this.slices = Array.from({ length: sliceCount }, () => new Set<T>());
  }

  get size(): number {
    return this.sliceOf.size;
  }

  /** Puts the item in the emptiest slice, so slices stay even however items come and go. */
  add(item: T) {
    if (this.sliceOf.has(item)) return;
    let best = 0;
    for (let i = 1; i < this.slices.length; i++) if (this.slices[i]!.size < this.slices[best]!.size) best = i;
    this.slices[best]!.add(item);
    this.sliceOf.set(item, best);
  }

  remove(item: T) {
    const slice = this.sliceOf.get(item);
    if (slice === undefined) return;
    this.slices[slice]!.delete(item);
    this.sliceOf.delete(item);
  }

  /** The items due at this tick (a copy: visiting may remove them), and whether a lap begins. */
  next(): { due: T[]; lapStarts: boolean } {
    const index = this.tick;
    this.tick = (this.tick + 1) % this.slices.length;
    return { due: [...this.slices[index]!], lapStarts: index === 0 };
  }
}
