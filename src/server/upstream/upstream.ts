import { AsyncLocalStorage } from "node:async_hooks";
import { setMaxListeners } from "node:events";
import type { CacheKind, UpstreamConfig } from "../config.js";
import { ProblemError } from "../http/errors.js";
import { type AllowList, createAddressGuard, type Reach } from "./address-guard.js";
import { type Answer, type CacheRule, type Clock, UpstreamCache } from "./cache.js";
import { createUpstreamFetch, type UpstreamFetch } from "./fetch.js";

/**
 * A source's cache rule, declared beside its loader (DESIGN section 15) and handed to
 * `Upstream.cached` with each key. Only what the source knows is declared here; the times come
 * from config, so the operator's CACHE_* and UPSTREAM_FAILURE_SECONDS knobs tune every source.
 */
export interface CachePolicy {
  /** Names the source's entries: keys of two sources never meet, and no two policies share a name. */
  kind: string;
  /**
   * How long a loaded value is served without asking again: a config knob (CACHE_<KIND>_SECONDS,
   * which operators tune) or, for what is not worth a knob, milliseconds.
   */
  fresh: CacheKind | number;
  /**
   * A failure is answered again for UPSTREAM_FAILURE_SECONDS instead of being asked anew by every
   * waiting caller: for an upstream whose budget all users share (the exchange's 3 requests a
   * second) and for an address a user typed (it must not be hammered).
   */
  failuresRemembered: boolean;
  /**
   * Past freshness, the last good value stands in for up to CACHE_STALE_IF_ERROR_SECONDS while
   * loading fails: for what changes over days, never for what would look current and be wrong
   * (prices, account data).
   */
  staleIfError: boolean;
}

/** What a piece of outside data was made from (GET /api/widgets/data's `fetchedAt` and `stale`). */
export interface Observed<T> {
  value: T;
  /** When the oldest cached answer behind `value` was fetched; null when none was read (data kept here). */
  fetchedAt: number | null;
  /** Whether any answer behind `value` is an older one standing in for an upstream that failed. */
  stale: boolean;
}

/**
 * One answer of a cached source, for metrics: its source's name, whether it was good, served stale
 * after a failure, or a failure; and whether it came from the cache ("hit", a remembered failure
 * too) or from the service ("miss", this caller's load or one it shared).
 */
export interface UpstreamCall {
  source: string;
  outcome: "ok" | "stale" | "error";
  cache: "hit" | "miss";
}

/** The outside world as the app reaches it: one fetch, one cache, one shutdown signal. */
export interface Upstream {
  fetch: UpstreamFetch;
  /**
   * Refuses (400 `address_not_allowed`) a service's address none of whose addresses may be
   * reached now, for saving it; every connection checks again.
   */
  checkAddress(url: URL, reach?: Reach): Promise<void>;
  /** Aborted when the app closes; anything waiting on an upstream listens to it. */
  closing: AbortSignal;
  /** The value under `key` of that source, loaded at most once per freshness window. */
  cached<T>(policy: CachePolicy, key: string, load: () => Promise<T>): Promise<T>;
  /** Forgets that source's entries whose key starts with `prefix`. */
  invalidate(policy: CachePolicy, prefix: string): void;
  /**
   * Runs `load` and says how old the cached answers it read were and whether any was stale, so
   * a loader need not pass that along itself. A load another caller started (one flight) counts
   * for every caller that shares it.
   */
  observe<T>(load: () => Promise<T>): Promise<Observed<T>>;
  close(): void;
}

/**
 * `allowList`: the private hosts and networks user-given URLs may reach as they stand now (instance
 * settings: the admin page or FETCH_ALLOW_PRIVATE); without it, config's FETCH_ALLOW_PRIVATE list.
 */
export function createUpstream(
  config: UpstreamConfig,
  now: Clock = Date.now,
  allowList?: () => AllowList,
  answered?: (call: UpstreamCall) => void,
): Upstream {
  const controller = new AbortController();
  // Every request waiting on an upstream listens for shutdown; that many is expected.
  setMaxListeners(0, controller.signal);
  const cache = new UpstreamCache(now);
  const guard = createAddressGuard(allowList ?? config.allowPrivate, config.timeoutMs);
  const observing = new AsyncLocalStorage<Omit<Observed<unknown>, "value">>();
  const rules = new Map<string, { policy: CachePolicy; rule: CacheRule }>();
  const ruleOf = (policy: CachePolicy): CacheRule => {
    const known = rules.get(policy.kind);
    if (known) {
      // Two sources under one name would serve each other's entries; a policy is declared once.
      if (known.policy !== policy) throw new Error(`Two cache policies are named "${policy.kind}"`);
      return known.rule;
    }
    const failureMs = policy.failuresRemembered ? config.failureMs : 0;
    const rule: CacheRule = {
      freshMs: typeof policy.fresh === "number" ? policy.fresh : config.freshMs[policy.fresh],
      // A 503 (our own queue is full, or we are closing) clears on its own schedule.
      failureMs: (error) => (error instanceof ProblemError && error.status !== 503 ? failureMs : 0),
      staleIfErrorMs: policy.staleIfError ? config.staleIfErrorMs : 0,
    };
    rules.set(policy.kind, { policy, rule });
    return rule;
  };
  return {
    fetch: createUpstreamFetch({ timeoutMs: config.timeoutMs, closing: controller.signal, guard }),
    checkAddress: (url, reach) => guard.checkResolved(url, reach),
    closing: controller.signal,
    async cached<T>(policy: CachePolicy, key: string, load: () => Promise<T>) {
      let ran = false;
      const loading = answered
        ? () => {
            ran = true;
            return load();
          }
        : load;
      let found: Answer<T>;
      try {
        found = await cache.answer(`${policy.kind}|${key}`, ruleOf(policy), loading);
      } catch (error) {
        answered?.({ source: policy.kind, outcome: "error", cache: ran ? "miss" : "hit" });
        throw error;
      }
      const { value, fetchedAt, stale } = found;
      answered?.({ source: policy.kind, outcome: stale ? "stale" : "ok", cache: ran ? "miss" : "hit" });
      const seen = observing.getStore();
      if (seen) {
        seen.fetchedAt = Math.min(seen.fetchedAt ?? fetchedAt, fetchedAt);
        seen.stale ||= stale;
      }
      return value;
    },
    invalidate: (policy, prefix) => cache.invalidate(`${policy.kind}|${prefix}`),
    async observe(load) {
      const seen: Omit<Observed<unknown>, "value"> = { fetchedAt: null, stale: false };
      const value = await observing.run(seen, load);
      return { value, ...seen };
    },
    close() {
      controller.abort();
      cache.clear();
      void guard.close();
    },
  };
}
