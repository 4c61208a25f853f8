import type { AdBlockingData, Blocking } from "../contract.js";

/** What each kind's reader answers: the widget's data but for what the integration says of itself. */
export type Reading = Omit<AdBlockingData, "kind" | "actions">;

/** A blocker's change of state, as both kinds' actions take it. */
export type BlockingChange = { pauseMinutes: number } | "resume";

export interface BlockerClient {
  read(): Promise<Reading>;
  /** Carries out the change and answers the state after it. */
  change(change: BlockingChange): Promise<Blocking>;
}

/** The share of blocked queries, 0 to 1, from the counts (each service rounds its own differently). */
export const shareOf = (blocked: number, queries: number) =>
  queries > 0 ? Math.min(1, Math.max(0, blocked / queries)) : 0;

export const pausedUntil = (now: number, leftMs: number) => new Date(now + leftMs).toISOString();
