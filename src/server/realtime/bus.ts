/**
 * A message carried between instances: an event name, its payload, and an optional event id.
 * A bus whose transport caps message size (PostgreSQL NOTIFY: 8000 bytes) may deliver a message
 * without `data`; it then keeps `id` so listeners can load the payload from storage.
 */
export interface BusMessage {
  event: string;
  data?: unknown;
  id?: string;
}

/** Listeners are our own code: they must not throw (a bus swallows what they throw). */
export type BusListener = (message: BusMessage) => void;

/**
 * Fan-out between every instance of the app. Implementations: in-process (embedded),
 * Redis pub/sub, PostgreSQL LISTEN/NOTIFY. Subscriptions are per instance: one upstream
 * subscription per channel however many local listeners share it.
 */
export interface EventBus {
  publish(channel: string, message: BusMessage): Promise<void>;
  /** Resolves once the subscription is live upstream; the returned function unsubscribes. */
  subscribe(channel: string, listener: BusListener): Promise<() => void>;
  /**
   * Calls `callback` each time the bus is back after losing its upstream connection: messages
   * published meanwhile may be missing, so listeners that can catch up from storage should.
   * Returns a function that removes the callback.
   */
  onResync?(callback: () => void): () => void;
  close(): Promise<void>;
}
