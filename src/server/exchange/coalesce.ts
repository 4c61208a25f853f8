export interface CoalesceOptions {
  /** How long a loaded value is served without asking again. */
  freshMs: number;
  /** How long a failure is repeated without asking again (0: not remembered). */
  errorFreshMs: (error: unknown) => number;
  maxEntries?: number;
  now?: () => number;
}

type Settled<T> = { expiresAt: number } & ({ ok: true; value: T } | { ok: false; error: unknown });

/**
 * Single flight plus a freshness window: callers asking for a key while it loads share that
 * load, and callers within the window share its outcome, so a crowd costs one upstream call.
 */
export function createCoalescer<T>({
  freshMs,
  errorFreshMs,
  maxEntries = 2000,
  now = Date.now,
}: CoalesceOptions) {
  const settled = new Map<string, Settled<T>>();
  const inFlight = new Map<string, Promise<T>>();

  function remember(key: string, entry: Settled<T>) {
    settled.delete(key);
    settled.set(key, entry);
    // Keys come from user input (any valid pair), so the oldest entries make way past the bound.
    for (const oldest of settled.keys()) {
      if (settled.size <= maxEntries) break;
      settled.delete(oldest);
    }
  }

  return function get(key: string, load: () => Promise<T>): Promise<T> {
    const hit = settled.get(key);
    if (hit && hit.expiresAt > now()) return hit.ok ? Promise.resolve(hit.value) : Promise.reject(hit.error);
    const running = inFlight.get(key);
    if (running) return running;
    const promise = load().then(
      (value) => {
        inFlight.delete(key);
        remember(key, { ok: true, value, expiresAt: now() + freshMs });
        return value;
      },
      (error: unknown) => {
        inFlight.delete(key);
        const keepMs = errorFreshMs(error);
        if (keepMs > 0) remember(key, { ok: false, error, expiresAt: now() + keepMs });
        else settled.delete(key);
        throw error;
      },
    );
    inFlight.set(key, promise);
    return promise;
  };
}
