import { setMaxListeners } from "node:events";
import type { CacheKind, UpstreamConfig } from "../config.js";
import { ProblemError } from "../http/errors.js";
import { createAddressGuard } from "./address-guard.js";
import { type CacheRule, type Clock, UpstreamCache } from "./cache.js";
import { createUpstreamFetch, type UpstreamFetch } from "./fetch.js";

/**
 * The exchange's budget (3 requests a second) is shared by every user, so its failures are
 * repeated for a while instead of being asked again by each waiting widget; so are a failing feed's
 * (a user's address must not be hammered). Lists and feeds that change over
 * days may outlive a failing upstream; prices and account data may not, as they would look current.
 */
const REMEMBERS_FAILURES: readonly CacheKind[] = ["prices", "currencies", "feed"];
const STALE_IF_ERROR: readonly CacheKind[] = ["currencies", "geocoding", "feed"];

/** The outside world as the app reaches it: one fetch, one cache, one shutdown signal. */
export interface Upstream {
  fetch: UpstreamFetch;
  /** Aborted when the app closes; anything waiting on an upstream listens to it. */
  closing: AbortSignal;
  /** The value under `key` of that kind, loaded at most once per freshness window. */
  cached<T>(kind: CacheKind, key: string, load: () => Promise<T>): Promise<T>;
  /** Forgets that kind's entries whose key starts with `prefix`. */
  invalidate(kind: CacheKind, prefix: string): void;
  close(): void;
}

export function createUpstream(config: UpstreamConfig, now: Clock = Date.now): Upstream {
  const controller = new AbortController();
  // Every request waiting on an upstream listens for shutdown; that many is expected.
  setMaxListeners(0, controller.signal);
  const cache = new UpstreamCache(now);
  const guard = createAddressGuard(config.allowPrivate, config.timeoutMs);
  const rules = new Map<CacheKind, CacheRule>();
  const rule = (kind: CacheKind): CacheRule => {
    let found = rules.get(kind);
    if (!found) {
      const failureMs = REMEMBERS_FAILURES.includes(kind) ? config.failureMs : 0;
      found = {
        freshMs: config.freshMs[kind],
        // A 503 (our own queue is full, or we are closing) clears on its own schedule.
        failureMs: (error) => (error instanceof ProblemError && error.status !== 503 ? failureMs : 0),
        staleIfErrorMs: STALE_IF_ERROR.includes(kind) ? config.staleIfErrorMs : 0,
      };
      rules.set(kind, found);
    }
    return found;
  };
  return {
    fetch: createUpstreamFetch({ timeoutMs: config.timeoutMs, closing: controller.signal, guard }),
    closing: controller.signal,
    cached: (kind, key, load) => cache.get(`${kind}|${key}`, rule(kind), load),
    invalidate: (kind, prefix) => cache.invalidate(`${kind}|${prefix}`),
    close() {
      controller.abort();
      cache.clear();
      void guard.close();
    },
  };
}
