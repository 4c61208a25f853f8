import type { BusListener, BusMessage } from "./bus.js";

/** How a bus turns its first local listener on a channel into an upstream subscription, and back. */
export interface Upstream {
  listen(channel: string): Promise<void>;
  unlisten(channel: string): Promise<void>;
}

interface Entry {
  listeners: Set<BusListener>;
  live: Promise<void>;
}

/**
 * The local side every bus shares: listeners per channel with a reference count, so a channel
 * is subscribed upstream once on its first listener and released after its last.
 */
export class Subscriptions {
  private readonly channels = new Map<string, Entry>();

  constructor(private readonly upstream: Upstream) {}

  async add(channel: string, listener: BusListener): Promise<() => void> {
    let entry = this.channels.get(channel);
    if (!entry) {
      const created: Entry = { listeners: new Set(), live: this.upstream.listen(channel) };
      // A failed upstream subscription must not stick: the next subscriber tries again.
      created.live.catch(() => {
        if (this.channels.get(channel) === created) this.channels.delete(channel);
      });
      this.channels.set(channel, created);
      entry = created;
    }
    entry.listeners.add(listener);
    try {
      await entry.live;
    } catch (error) {
      entry.listeners.delete(listener);
      throw error;
    }
    const joined = entry;
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      joined.listeners.delete(listener);
      if (joined.listeners.size === 0 && this.channels.get(channel) === joined) {
        this.channels.delete(channel);
        // Best effort: when the upstream is down, reconnecting re-subscribes only live channels.
        this.upstream.unlisten(channel).catch(() => {});
      }
    };
  }

  /** Delivers to the channel's listeners; one listener failing never starves the others. */
  dispatch(channel: string, message: BusMessage) {
    const entry = this.channels.get(channel);
    if (!entry) return;
    for (const listener of [...entry.listeners]) {
      try {
        listener(message);
      } catch {}
    }
  }

  has(channel: string): boolean {
    return this.channels.has(channel);
  }

  /** Channels with at least one listener: what a reconnected bus must subscribe again. */
  names(): string[] {
    return [...this.channels.keys()];
  }

  clear() {
    this.channels.clear();
  }
}
