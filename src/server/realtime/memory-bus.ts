import type { BusListener, BusMessage, EventBus } from "./bus.js";

/** The embedded-mode bus: one process, so fan-out is a local map of listeners. */
export function createMemoryBus(): EventBus {
  const channels = new Map<string, Set<BusListener>>();
  return {
    async publish(channel: string, message: BusMessage) {
      const listeners = channels.get(channel);
      if (!listeners) return;
      // Deliver on a later tick, like a remote bus would, so publishers never run listener code.
      for (const listener of [...listeners]) queueMicrotask(() => listener(message));
    },
    async subscribe(channel: string, listener: BusListener) {
      const listeners = channels.get(channel) ?? new Set<BusListener>();
      channels.set(channel, listeners);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) channels.delete(channel);
      };
    },
    async close() {
      channels.clear();
    },
  };
}
