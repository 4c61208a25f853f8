import type { Static } from "@sinclair/typebox";
import { Type } from "./typebox.js";

/**
 * Operators' resources (DESIGN sections 8, 9, 12): roles, invites, users as admins see them,
 * API keys, the user's signed-in devices, and what the sign-in page needs to know.
 */

const Timestamp = Type.String({ format: "date-time", description: "ISO 8601, UTC, milliseconds" });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);

export const ROLES = ["admin", "member"] as const;
export type Role = (typeof ROLES)[number];
export const RoleSchema = Type.Union(ROLES.map((r) => Type.Literal(r)));

export const SIGNUP_MODES = ["invite", "open", "closed"] as const;

/** Scopes of an API key: `write` includes `read` and `notifications:write`. */
export const API_KEY_SCOPES = ["read", "write", "notifications:write"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
/** Keys start with it, so a key is told apart from a session token at a glance. */
export const API_KEY_PREFIX = "tsk_";
export const API_KEY_NAME_MAX = 100;
export const API_KEYS_PER_USER = 50;
export const INVITE_HOURS_DEFAULT = 72;
export const INVITE_HOURS_MAX = 24 * 90;

export const MeSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    email: Type.String(),
    role: RoleSchema,
    image: NullableString,
  },
  { $id: "Me" },
);
export type Me = Static<typeof MeSchema>;

export const InstanceSchema = Type.Object(
  {
    signupMode: Type.Union(SIGNUP_MODES.map((m) => Type.Literal(m))),
    passwordLogin: Type.Boolean(),
    sso: Type.Union([
      Type.Object({
        providerId: Type.String(),
        displayName: Type.String(),
        available: Type.Boolean({ description: "false while the provider's discovery fails" }),
      }),
      Type.Null(),
    ]),
    hasUsers: Type.Boolean({ description: "false on a fresh instance: the first account becomes admin" }),
  },
  { $id: "Instance" },
);
export type Instance = Static<typeof InstanceSchema>;

export const AdminUserSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    email: Type.String(),
    role: RoleSchema,
    createdAt: Timestamp,
    disabled: Type.Boolean(),
    lastActiveAt: NullableTimestamp,
  },
  { $id: "AdminUser" },
);
export type AdminUser = Static<typeof AdminUserSchema>;

export const UpdateUserBody = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  role: Type.Optional(RoleSchema),
  disabled: Type.Optional(Type.Boolean()),
});

/** An account an admin creates (every sign-up mode; the only way in when sign-up is closed). */
export const CreateAccountBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, pattern: "\\S" }),
  email: Type.String({ format: "email", maxLength: 254 }),
  password: Type.Optional(
    Type.String({
      minLength: 8,
      maxLength: 128,
      description: "The initial password; without it one is generated and answered once",
    }),
  ),
  role: Type.Optional(RoleSchema),
});

/** The answer to creating an account (the server's route schema spells it out for OpenAPI). */
export interface CreatedAccount {
  user: AdminUser;
  /** The generated initial password, in this answer only; null when the admin chose one. */
  password: string | null;
}

export const CreateInviteBody = Type.Object({
  email: Type.Optional(Type.String({ format: "email", maxLength: 254 })),
  role: Type.Optional(RoleSchema),
  expiresInHours: Type.Optional(Type.Integer({ minimum: 1, maximum: INVITE_HOURS_MAX })),
});

export const InviteSchema = Type.Object(
  {
    id: Type.String({ format: "uuid" }),
    email: NullableString,
    role: RoleSchema,
    createdAt: Timestamp,
    expiresAt: Timestamp,
  },
  { $id: "Invite" },
);
export type Invite = Static<typeof InviteSchema>;

export const CreatedInviteSchema = Type.Object(
  {
    id: Type.String({ format: "uuid" }),
    url: Type.String({ description: "The sign-up link to hand over; shown once" }),
    token: Type.String({ description: "Shown once; only its hash is kept" }),
    email: NullableString,
    role: RoleSchema,
    expiresAt: Timestamp,
  },
  { $id: "CreatedInvite" },
);
export type CreatedInvite = Static<typeof CreatedInviteSchema>;

const ScopeSchema = Type.Union(API_KEY_SCOPES.map((s) => Type.Literal(s)));

export const CreateApiKeyBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: API_KEY_NAME_MAX }),
  scopes: Type.Array(ScopeSchema, { minItems: 1, maxItems: API_KEY_SCOPES.length, uniqueItems: true }),
  expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
});

const apiKeyFields = {
  id: Type.String(),
  name: Type.String(),
  scopes: Type.Array(ScopeSchema),
  start: Type.String({ description: "The key's first characters, to recognise it" }),
  createdAt: Timestamp,
  expiresAt: NullableTimestamp,
  lastUsedAt: NullableTimestamp,
};
export const ApiKeySchema = Type.Object(apiKeyFields, { $id: "ApiKey" });
export type ApiKey = Static<typeof ApiKeySchema>;
export const CreatedApiKeySchema = Type.Object(
  { ...apiKeyFields, key: Type.String({ description: "The key itself: shown in this answer only" }) },
  { $id: "CreatedApiKey" },
);
export type CreatedApiKey = Static<typeof CreatedApiKeySchema>;

export const DeviceSessionSchema = Type.Object(
  {
    id: Type.String(),
    current: Type.Boolean({ description: "The session this request came with" }),
    userAgent: NullableString,
    ipAddress: NullableString,
    createdAt: Timestamp,
    lastActiveAt: Timestamp,
    expiresAt: Timestamp,
  },
  { $id: "DeviceSession" },
);
export type DeviceSession = Static<typeof DeviceSessionSchema>;

/** Every schema above with an $id, for the server to register (OpenAPI components). */
export const OPERATOR_SCHEMAS = [
  MeSchema,
  InstanceSchema,
  AdminUserSchema,
  InviteSchema,
  CreatedInviteSchema,
  ApiKeySchema,
  CreatedApiKeySchema,
  DeviceSessionSchema,
];
