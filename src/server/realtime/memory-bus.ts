import type { BusMessage, EventBus } from "./bus.js";
import { Subscriptions } from "./subscriptions.js";

/** The embedded-mode bus: one process, so fan-out is a local map of listeners. */
export function createMemoryBus(): EventBus {
  const subscriptions = new Subscriptions({ listen: async () => {}, unlisten: async () => {} });
  return {
    async publish(channel: string, message: BusMessage) {
      // Deliver on a later tick, like a remote bus would, so publishers never run listener code.
      queueMicrotask(() => subscriptions.dispatch(channel, message));
    },
    subscribe: (channel, listener) => subscriptions.add(channel, listener),
    async close() {
      subscriptions.clear();
    },
  };
}
