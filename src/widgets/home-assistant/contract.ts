import type { Static, TSchema } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { defineWidgetType } from "../../contract/widget-kit/define.js";
import { Matching, Text } from "../../contract/widget-kit/fields.js";
import type { RepairKeywords } from "../../contract/widget-kit/parse.js";

/**
 * The Home Assistant widget (DESIGN section 16): a few entities' states through a saved
 * `homeassistant` integration (its token stays on the server), and a switch for editors where
 * Home Assistant's `toggle` service applies.
 */

/** Each entity is one call to Home Assistant per refresh: a handful, not the whole house. */
export const HOME_ASSISTANT_ENTITIES_MAX = 30;
export const HOME_ASSISTANT_LABEL_MAX = 100;
export const REFRESH_SECONDS_MIN = 10;
export const REFRESH_SECONDS_MAX = 3600;
export const REFRESH_SECONDS_DEFAULT = 30;

/**
 * Home Assistant's entity id: `<domain>.<object id>`, lower-case letters, digits and underscores
 * (its `valid_entity_id`), at most 255 characters.
 */
export const ENTITY_ID_PATTERN = "^[a-z0-9_]+\\.[a-z0-9_]+$";
export const ENTITY_ID_MAX = 255;
const entityIdExpression = new RegExp(ENTITY_ID_PATTERN);
export const isEntityId = (value: string) => value.length <= ENTITY_ID_MAX && entityIdExpression.test(value);

/**
 * The domains the switch is offered for: their `toggle` service flips a plain on/off state.
 * Covers (garage doors, gates) are left out on purpose: a tap on a dashboard opening a gate is a
 * physical-access decision, and a cover's toggle while it moves stops it rather than flipping it.
 * Locks have no toggle; climate and media players mean more than on and off.
 */
export const TOGGLABLE_DOMAINS = [
  "light",
  "switch",
  "input_boolean",
  "fan",
  "automation",
  "siren",
  "humidifier",
] as const;

export const domainOf = (entityId: string) => entityId.slice(0, entityId.indexOf("."));
export const isTogglable = (entityId: string) =>
  (TOGGLABLE_DOMAINS as readonly string[]).includes(domainOf(entityId));

const UUID = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

const entityIdKeywords: RepairKeywords = { clean: (s) => s.trim().toLowerCase() };

const HomeAssistantEntity = Type.Object({
  // Typed as people copy it from Home Assistant ("Light.Kitchen " works).
  entityId: Type.String({ pattern: ENTITY_ID_PATTERN, maxLength: ENTITY_ID_MAX, ...entityIdKeywords }),
  /** Shown instead of Home Assistant's friendly name. */
  label: Type.Optional(Text({ maxLength: HOME_ASSISTANT_LABEL_MAX, trim: true })),
});

export const HomeAssistantConfig = Type.Object({
  /** A saved integration of kind `homeassistant` the widget's owner may use. */
  integrationId: Type.Optional(Matching(UUID, { clean: (s) => s.toLowerCase() })),
  entities: Type.Array(HomeAssistantEntity, { default: [], maxItems: HOME_ASSISTANT_ENTITIES_MAX }),
  /** How often the page asks again; the server keeps each state for 10 s at most. */
  refreshSeconds: Type.Integer({
    minimum: REFRESH_SECONDS_MIN,
    maximum: REFRESH_SECONDS_MAX,
    default: REFRESH_SECONDS_DEFAULT,
  }),
});
export type HomeAssistantConfig = Static<typeof HomeAssistantConfig>;
export type HomeAssistantEntityConfig = HomeAssistantConfig["entities"][number];

/** What the server loads for a config: the integration and the entities, labels applied by the view. */
export interface HomeAssistantQuery {
  integrationId: string;
  entityIds: string[];
}

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const HomeAssistantEntityStateSchema = Type.Object({
  entityId: Type.String(),
  domain: Type.String(),
  /** Home Assistant's friendly name; null when it has none (or the entity is unknown). */
  friendlyName: Nullable(Type.String()),
  /** The state as Home Assistant says it ("on", "21.5", "unavailable"); null when the entity is unknown. */
  state: Nullable(Type.String()),
  unit: Nullable(Type.String()),
  /** `device_class` (door, motion, temperature…), for the words of an on/off state. */
  deviceClass: Nullable(Type.String()),
  /** When the state last changed, ISO 8601 UTC. */
  lastChanged: Nullable(Type.String()),
  /** Whether the switch applies (its domain's `toggle` service). */
  togglable: Type.Boolean(),
  /** False when Home Assistant has no such entity (404). */
  found: Type.Boolean(),
});
export type HomeAssistantEntityState = Static<typeof HomeAssistantEntityStateSchema>;

export const HomeAssistantDataSchema = Type.Object(
  {
    entities: Type.Array(HomeAssistantEntityStateSchema),
    /** Whether an admin lets widgets act through the integration (the switch works only then). */
    actions: Type.Boolean(),
  },
  { description: "The states of a Home Assistant widget's entities, in the widget's order" },
);
export type HomeAssistantData = Static<typeof HomeAssistantDataSchema>;

/** What the `toggle` action answers: the entity's state after the call. */
export interface HomeAssistantToggleResult {
  entityId: string;
  state: string | null;
  lastChanged: string | null;
}

export const homeAssistantWidget = defineWidgetType({
  type: "Home Assistant",
  server: true,
  config: HomeAssistantConfig,
  data: {
    kind: "service",
    publicRoute: "home-assistant",
    visitorQuery: ({ integrationId, entities }: HomeAssistantConfig): HomeAssistantQuery | null =>
      integrationId && entities.length > 0
        ? { integrationId, entityIds: entities.map((e) => e.entityId) }
        : null,
  },
  // An entity listed twice is shown once.
  refine: (config) => {
    const seen = new Set<string>();
    const entities = config.entities.filter((e) => !seen.has(e.entityId) && seen.add(e.entityId));
    return entities.length === config.entities.length ? config : { ...config, entities };
  },
});
