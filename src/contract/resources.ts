import { type Static, type TProperties, Type } from "@sinclair/typebox";
import { GEOMETRY_MAX, WIDGET_TYPES } from "../widgets/index.js";
import { LOOK_ACCENT_PATTERN, LOOK_BACKGROUND_MAX, LOOK_BACKGROUND_PATTERN } from "./look.js";
import { NOTIFICATION_MESSAGE_MAX, NOTIFICATION_TYPES } from "./notifications.js";
import { PROVIDERS } from "./providers.js";
import { AccessSchema } from "./sharing.js";

/**
 * The spec's resources as JSON Schema. The server validates and serializes with them and the
 * OpenAPI document is generated from them; the web app imports only the derived types.
 */

const Timestamp = Type.String({ format: "date-time", description: "ISO 8601, UTC, milliseconds" });
export const Uuid = Type.String({ format: "uuid" });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);
/** The stored column is a 4-byte integer: a larger one could never match, so it is refused as input. */
const REVISION_MAX = 2_147_483_647;
const Revision = Type.Integer({
  minimum: 1,
  maximum: REVISION_MAX,
  description: "1 on create, +1 on every change",
});
/** What a write expects the record to be at; absent, the write goes through whatever it is at. */
const ExpectedRevision = Type.Optional(
  Type.Integer({
    minimum: 1,
    maximum: REVISION_MAX,
    description:
      "The revision the change was made on: when the stored one differs, nothing is written and the answer is 409 `conflict` with the stored record in `current`",
  }),
);

export const ProviderSchema = Type.Union(
  PROVIDERS.map((p) => Type.Literal(p)),
  { description: "suite, codehost or notes" },
);
export const WidgetTypeSchema = Type.Union(WIDGET_TYPES.map((t) => Type.Literal(t)));
export const NotificationTypeSchema = Type.Union(NOTIFICATION_TYPES.map((t) => Type.Literal(t)));

/** Any JSON object; the server keeps it as given. */
export const ConfigObject = Type.Object({}, { additionalProperties: true });

export const AccountSchema = Type.Object(
  {
    id: Type.String(),
    accountId: Type.String(),
    providerId: ProviderSchema,
    userId: Type.String(),
    accessToken: Type.Null({ description: "always null: tokens never leave the server" }),
    refreshToken: Type.Null({ description: "always null: tokens never leave the server" }),
    idToken: Type.Null({ description: "always null: tokens never leave the server" }),
    accessTokenExpiresAt: NullableTimestamp,
    refreshTokenExpiresAt: NullableTimestamp,
    scope: NullableString,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: "Account" },
);
export type Account = Static<typeof AccountSchema>;

/**
 * A record a user owns, as the spec shapes it: `id` and `userId` first, the record's own fields,
 * then `createdAt` and `updatedAt`.
 */
function OwnedRecord<P extends TProperties>(id: string, properties: P) {
  return Type.Object(
    { id: Uuid, userId: Type.String(), ...properties, createdAt: Timestamp, updatedAt: Timestamp },
    { $id: id },
  );
}

export const WidgetSchema = OwnedRecord("Widget", {
  dashboardId: Uuid,
  widgetType: WidgetTypeSchema,
  height: Type.Number(),
  width: Type.Number(),
  positionX: Type.Number(),
  positionY: Type.Number(),
  config: ConfigObject,
  revision: Revision,
});
export type Widget = Static<typeof WidgetSchema>;

/** A dashboard's personal look (DESIGN section 13); every key optional, `{}` is the plain look. */
export const LookSchema = Type.Object(
  {
    accent: Type.Optional(
      Type.String({ pattern: LOOK_ACCENT_PATTERN, description: "Accent colour, #rgb or #rrggbb" }),
    ),
    background: Type.Optional(
      Type.String({
        pattern: LOOK_BACKGROUND_PATTERN,
        maxLength: LOOK_BACKGROUND_MAX,
        description: `Background image: an absolute http or https URL without credentials, at most ${LOOK_BACKGROUND_MAX} characters`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type Look = Static<typeof LookSchema>;

export const DashboardSchema = OwnedRecord("Dashboard", {
  name: Type.String(),
  isPublic: Type.Boolean(),
  look: { ...LookSchema, description: "The dashboard's look; {} when none was set" },
  revision: Revision,
  access: AccessSchema,
  provisionKey: Type.Union([Type.String(), Type.Null()], {
    description:
      "The `key` of the provisioning file it comes from (DESIGN section 17); null for one made in the app",
  }),
  provisionLocked: Type.Boolean({
    description:
      "Provisioned and not `editable: true`: it changes only through its file, and every write here answers 409 `provisioned`",
  }),
  owner: Type.Optional(
    Type.Object(
      { id: Type.String(), name: Type.String() },
      { description: "Whose dashboard it is; only on dashboards the caller does not own" },
    ),
  ),
});
export type Dashboard = Static<typeof DashboardSchema>;

export const SettingsSchema = OwnedRecord("Settings", {
  lastDashboardId: Type.Union([Uuid, Type.Null()]),
  config: Type.Unknown({ description: "any JSON value" }),
  onboardingCompleted: Type.Boolean(),
});
export type Settings = Static<typeof SettingsSchema>;

export const NotificationSchema = Type.Object(
  {
    id: Uuid,
    userId: Type.String(),
    type: NotificationTypeSchema,
    message: Type.String(),
    createdAt: Timestamp,
  },
  { $id: "Notification" },
);
export type Notification = Static<typeof NotificationSchema>;

// Request bodies. Numbers are checked for finiteness and bounds; DESIGN section 2.
const Extent = Type.Number({ exclusiveMinimum: 0, maximum: GEOMETRY_MAX });
const Position = Type.Number({ minimum: 0, maximum: GEOMETRY_MAX });
const DashboardName = Type.String({ minLength: 1, maxLength: 100, pattern: "\\S" });

export const CreateWidgetBody = Type.Object({
  dashboardId: Uuid,
  widgetType: WidgetTypeSchema,
  height: Extent,
  width: Extent,
  positionX: Position,
  positionY: Position,
  config: Type.Optional(ConfigObject),
});
export type CreateWidgetInput = Static<typeof CreateWidgetBody>;

export const UpdateWidgetBody = Type.Object({
  id: Uuid,
  height: Type.Optional(Extent),
  width: Type.Optional(Extent),
  positionX: Type.Optional(Position),
  positionY: Type.Optional(Position),
  config: Type.Optional(ConfigObject),
  revision: ExpectedRevision,
});
export type UpdateWidgetInput = Static<typeof UpdateWidgetBody>;

export const CreateDashboardBody = Type.Object({ name: DashboardName });
export const UpdateDashboardBody = Type.Object({
  id: Uuid,
  name: DashboardName,
  isPublic: Type.Optional(Type.Boolean()),
  look: Type.Optional(
    Type.Union([LookSchema, Type.Null()], {
      description: "The dashboard's look; null or {} clears it, absent leaves it as it is",
    }),
  ),
  revision: ExpectedRevision,
});
export type UpdateDashboardInput = Static<typeof UpdateDashboardBody>;

export const UpdateSettingsBody = Type.Object({
  id: Uuid,
  lastDashboardId: Type.Optional(Type.Union([Uuid, Type.Null()])),
  config: Type.Optional(Type.Unknown()),
  onboardingCompleted: Type.Optional(Type.Boolean()),
});
export type UpdateSettingsInput = Static<typeof UpdateSettingsBody>;

export const CreateNotificationBody = Type.Object({
  type: NotificationTypeSchema,
  message: Type.String({ minLength: 1, maxLength: NOTIFICATION_MESSAGE_MAX }),
});
export type CreateNotificationInput = Static<typeof CreateNotificationBody>;

export const UpdateAccountBody = Type.Object({
  provider: ProviderSchema,
  refreshToken: Type.String({ minLength: 1, maxLength: 8192 }),
});

export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
    requestId: Type.Optional(Type.String()),
    current: Type.Optional(
      Type.Unknown({ description: "`conflict` of a write: the record as stored, as a read answers it" }),
    ),
  },
  { $id: "Problem" },
);
