import { Redis } from "ioredis";
import { FAIL_FAST } from "../redis/client.js";
import type { BusMessage, EventBus } from "./bus.js";
import { Subscriptions } from "./subscriptions.js";

/**
 * Redis pub/sub: one subscriber connection per instance, however many channels and listeners,
 * plus one connection to publish on (a subscribed connection cannot run other commands).
 * Channels are namespaced by the deployment's prefix, so deployments can share a Redis.
 */
export function createRedisBus(url: string, prefix: string): EventBus {
  const namespace = `${prefix}bus:`;
  const upstreamName = (channel: string) => namespace + channel;
  const subscriber = new Redis(url, {
    connectionName: `${prefix}bus-sub`,
    // Subscribing waits for Redis to come back rather than failing: the stream is already open.
    maxRetriesPerRequest: null,
    // Re-subscribed by hand below, so the bus knows when it is live again and can resync.
    autoResubscribe: false,
  });
  // Publishing follows a stored write: it fails fast like every command when Redis is away.
  const publisher = new Redis(url, { ...FAIL_FAST, connectionName: `${prefix}bus-pub` });
  // Connection loss is handled by reconnecting, not by crashing; publish failures reach the caller.
  subscriber.on("error", () => {});
  publisher.on("error", () => {});
  // Publishes issued while the first connection is being made wait for that attempt only.
  const firstAttempt = new Promise<void>((resolve) => {
    publisher.once("ready", resolve);
    publisher.once("error", () => resolve());
  });

  const subscriptions = new Subscriptions({
    listen: async (channel) => {
      await subscriber.subscribe(upstreamName(channel));
    },
    unlisten: async (channel) => {
      await subscriber.unsubscribe(upstreamName(channel));
    },
  });
  const resyncCallbacks = new Set<() => void>();

  subscriber.on("message", (upstream: string, payload: string) => {
    if (!upstream.startsWith(namespace)) return;
    let message: BusMessage;
    try {
      message = JSON.parse(payload);
    } catch {
      return;
    }
    subscriptions.dispatch(upstream.slice(namespace.length), message);
  });

  let connectedBefore = false;
  subscriber.on("ready", () => {
    if (!connectedBefore) {
      connectedBefore = true;
      return;
    }
    const channels = subscriptions.names().map(upstreamName);
    const resubscribed = channels.length > 0 ? subscriber.subscribe(...channels) : Promise.resolve();
    resubscribed.then(
      () => {
        for (const callback of resyncCallbacks) callback();
      },
      // Lost again before it completed: the next "ready" repeats this.
      () => {},
    );
  });

  return {
    async publish(channel, message) {
      await firstAttempt;
      await publisher.publish(upstreamName(channel), JSON.stringify(message));
    },
    subscribe: (channel, listener) => subscriptions.add(channel, listener),
    onResync(callback) {
      resyncCallbacks.add(callback);
      return () => resyncCallbacks.delete(callback);
    },
    async close() {
      subscriptions.clear();
      resyncCallbacks.clear();
      subscriber.disconnect();
      // QUIT lets queued publishes finish; a publisher that is not connected has nothing to finish.
      if (publisher.status === "ready") await publisher.quit().catch(() => publisher.disconnect());
      else publisher.disconnect();
    },
  };
}
