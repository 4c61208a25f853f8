/** A message carried between instances: an event name, its payload, and an optional event id. */
export interface BusMessage {
  event: string;
  data: unknown;
  id?: string;
}

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
  close(): Promise<void>;
}
