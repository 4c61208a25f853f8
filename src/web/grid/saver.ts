/**
 * Saves widget changes: geometry and config patches are merged per widget, sent after a quiet
 * period, one request per changed widget carrying only what changed. A failed save keeps its
 * patch and is retried with back-off, so nothing typed or moved is lost; a newer local change
 * always wins over an older one still waiting.
 */

export interface Geometry {
  positionX: number;
  positionY: number;
  width: number;
  height: number;
}

export interface WidgetPatch {
  geometry?: Geometry;
  config?: Record<string, unknown>;
}

export type SaveBody = { id: string } & Partial<Geometry> & { config?: Record<string, unknown> };

export interface SaverStatus {
  /** Widgets with changes not yet confirmed by the server. */
  pending: number;
  /** The last attempt failed and a retry is scheduled. */
  failing: boolean;
  lastError: unknown;
}

export interface SaverOptions {
  send(body: SaveBody, options: { keepalive: boolean }): Promise<unknown>;
  delayMs?: number;
  /** Back-off after failures, in ms; the last value repeats. */
  retryDelaysMs?: number[];
  onStatus?(status: SaverStatus): void;
  /** Called once when a run of failures starts (for a toast), not on every retry. */
  onFailure?(error: unknown): void;
  /** A save the server rejects for good (404: the widget is gone; 400: invalid) is dropped. */
  isPermanent?(error: unknown): boolean;
  setTimer?(fn: () => void, ms: number): unknown;
  clearTimer?(handle: unknown): void;
}

export class WidgetSaver {
  private pending = new Map<string, WidgetPatch>();
  private inflight = new Set<string>();
  private timer: unknown = null;
  private failures = 0;
  private lastError: unknown = null;
  private idle: (() => void)[] = [];
  private readonly delay: number;
  private readonly retryDelays: number[];
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(private readonly options: SaverOptions) {
    this.delay = options.delayMs ?? 500;
    this.retryDelays = options.retryDelaysMs ?? [2000, 5000, 10_000, 30_000];
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer =
      options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  }

  queue(id: string, patch: WidgetPatch): void {
    const current = this.pending.get(id) ?? {};
    this.pending.set(id, { ...current, ...definedOnly(patch) });
    this.emit();
    if (this.failures === 0) this.schedule(this.delay);
  }

  /** The widget was deleted: whatever was waiting for it is moot. */
  forget(id: string): void {
    this.pending.delete(id);
    this.emit();
  }

  hasPending(id?: string): boolean {
    return id === undefined
      ? this.pending.size + this.inflight.size > 0
      : this.pending.has(id) || this.inflight.has(id);
  }

  status(): SaverStatus {
    return {
      pending: new Set([...this.pending.keys(), ...this.inflight]).size,
      failing: this.failures > 0,
      lastError: this.lastError,
    };
  }

  /** Sends everything now (the retry button, or the page going away). */
  flush(options: { keepalive?: boolean } = {}): Promise<void> {
    if (this.timer !== null) {
      this.clearTimer(this.timer);
      this.timer = null;
    }
    return this.run(options.keepalive ?? false);
  }

  /** Resolves once nothing is pending or in flight. */
  settled(): Promise<void> {
    if (!this.hasPending()) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  dispose(): void {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
  }

  private schedule(ms: number) {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = this.setTimer(() => {
      this.timer = null;
      void this.run(false);
    }, ms);
  }

  private async run(keepalive: boolean): Promise<void> {
    // A widget with a request in flight waits for it, so its saves reach the server in order.
    const ids = [...this.pending.keys()].filter((id) => !this.inflight.has(id));
    if (ids.length === 0) return this.checkIdle();
    const results = await Promise.all(ids.map((id) => this.saveOne(id, keepalive)));
    const failed = results.filter((r) => r !== true);
    if (failed.length === 0) {
      this.failures = 0;
      this.lastError = null;
      if (this.pending.size > 0) this.schedule(this.delay);
    } else {
      if (this.failures === 0) this.options.onFailure?.(failed[0]);
      this.failures++;
      this.lastError = failed[0];
      const index = Math.min(this.failures - 1, this.retryDelays.length - 1);
      this.schedule(this.retryDelays[index] ?? 30_000);
    }
    this.emit();
    this.checkIdle();
  }

  private async saveOne(id: string, keepalive: boolean): Promise<true | unknown> {
    const patch = this.pending.get(id);
    if (!patch) return true;
    this.pending.delete(id);
    this.inflight.add(id);
    this.emit();
    try {
      await this.options.send(toBody(id, patch), { keepalive });
      return true;
    } catch (error) {
      if (this.options.isPermanent?.(error)) return true;
      // Put it back under anything newer that arrived meanwhile.
      const newer = this.pending.get(id) ?? {};
      this.pending.set(id, { ...patch, ...newer });
      return error;
    } finally {
      this.inflight.delete(id);
    }
  }

  private checkIdle() {
    if (this.hasPending()) return;
    for (const resolve of this.idle.splice(0)) resolve();
  }

  private emit() {
    this.options.onStatus?.(this.status());
  }
}

function definedOnly(patch: WidgetPatch): WidgetPatch {
  const out: WidgetPatch = {};
  if (patch.geometry) out.geometry = patch.geometry;
  if (patch.config) out.config = patch.config;
  return out;
}

function toBody(id: string, patch: WidgetPatch): SaveBody {
  return { id, ...(patch.geometry ?? {}), ...(patch.config ? { config: patch.config } : {}) };
}
