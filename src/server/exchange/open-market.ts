import type { Redis } from "ioredis";
import type { Config } from "../config.js";
import type { Upstream } from "../upstream/upstream.js";
import { createExchangeClient } from "./client.js";
import { createMarket, type Market } from "./market.js";
import { createSigner } from "./signer.js";
import { createThrottle, memorySlotStore, redisSlotStore, throttleLimits } from "./throttle.js";

/**
 * The app's one market: the widgets' routes and the price alerts read the same cache through the
 * same throttle, so alerts add no exchange traffic of their own within a freshness window.
 */
export function openMarket(config: Config, redis: Redis | null, upstream: Upstream): Market {
  const { url, clientId, clientSecret, passphrase } = config.exchange;
  const slots = redis ? redisSlotStore(redis, `${config.redisPrefix}exchange:`) : memorySlotStore();
  return createMarket(
    createExchangeClient({
      baseUrl: url,
      sign: createSigner(
        clientId && clientSecret
          ? { key: clientId, secret: clientSecret, passphrase: passphrase ?? clientSecret }
          : null,
      ),
      throttle: createThrottle(slots, throttleLimits(config.upstream.timeoutMs)),
      fetch: upstream.fetch,
      closing: upstream.closing,
    }),
    upstream,
  );
}
