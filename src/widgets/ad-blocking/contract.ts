import type { Static, TSchema } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { defineWidgetType } from "../../contract/widget-kit/define.js";
import { Matching } from "../../contract/widget-kit/fields.js";

/**
 * The Ad Blocking widget (issue 33): a DNS blocker's day at a glance through a saved `pihole`
 * (v6) or `adguard` (AdGuard Home) integration: queries, blocked ones and their share, whether
 * blocking is on, and for editors a pause of a few minutes and a resume.
 */

export const AD_BLOCKING_KINDS = ["pihole", "adguard"] as const;
export type AdBlockingKind = (typeof AD_BLOCKING_KINDS)[number];

export const REFRESH_SECONDS_MIN = 10;
export const REFRESH_SECONDS_MAX = 3600;
export const REFRESH_SECONDS_DEFAULT = 30;

/** The pauses offered, in minutes: long enough to load a page a list breaks, short enough to forget. */
export const PAUSE_MINUTES = [1, 5, 10, 30, 60] as const;
export type PauseMinutes = (typeof PAUSE_MINUTES)[number];

const UUID = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

export const AdBlockingConfig = Type.Object({
  /** A saved integration of kind `pihole` or `adguard` the widget's owner may use. */
  integrationId: Type.Optional(Matching(UUID, { clean: (s) => s.toLowerCase() })),
  /** How often the page asks again; the server keeps each answer for 10 s at most. */
  refreshSeconds: Type.Integer({
    minimum: REFRESH_SECONDS_MIN,
    maximum: REFRESH_SECONDS_MAX,
    default: REFRESH_SECONDS_DEFAULT,
  }),
});
export type AdBlockingConfig = Static<typeof AdBlockingConfig>;

export interface AdBlockingQuery {
  integrationId: string;
}

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const BLOCKING_STATES = ["enabled", "disabled", "paused", "failed", "unknown"] as const;
export type BlockingState = (typeof BLOCKING_STATES)[number];

export const BlockingSchema = Type.Object({
  /** `paused`: off until `pausedUntil`, then on by itself; `failed`: Pi-hole's DNS is not running. */
  state: Type.Union(BLOCKING_STATES.map((s) => Type.Literal(s))),
  /** When a pause ends, ISO 8601 UTC; null unless paused. */
  pausedUntil: Nullable(Type.String()),
});
export type Blocking = Static<typeof BlockingSchema>;

export const AdBlockingDataSchema = Type.Object(
  {
    kind: Type.Union(AD_BLOCKING_KINDS.map((k) => Type.Literal(k))),
    /** DNS queries answered in the window. */
    queries: Type.Integer({ minimum: 0 }),
    /** Of those, the ones a block list stopped. */
    blocked: Type.Integer({ minimum: 0 }),
    /** blocked / queries, 0 to 1; 0 without queries. */
    blockedShare: Type.Number({ minimum: 0, maximum: 1 }),
    /**
     * The hours the counts cover, up to now: 24 (Pi-hole keeps a day in memory; AdGuard Home's
     * last 24 hours), fewer when AdGuard Home's statistics keep less.
     */
    windowHours: Type.Integer({ minimum: 0 }),
    blocking: BlockingSchema,
    /** Whether an admin lets widgets act through the integration (pause and resume work only then). */
    actions: Type.Boolean(),
  },
  { description: "A DNS blocker's queries, blocked share and blocking state, for an Ad Blocking widget" },
);
export type AdBlockingData = Static<typeof AdBlockingDataSchema>;

/** What `pause` and `resume` answer: the blocking state after the call. */
export type AdBlockingActionResult = Blocking;

export const adBlockingWidget = defineWidgetType({
  type: "Ad Blocking",
  server: true,
  config: AdBlockingConfig,
  data: {
    kind: "service",
    publicRoute: "ad-blocking",
    visitorQuery: ({ integrationId }: AdBlockingConfig): AdBlockingQuery | null =>
      integrationId ? { integrationId } : null,
  },
});
