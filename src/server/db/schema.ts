import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { Look } from "../../contract/resources.js";
import type { MemberRole, MemberType } from "../../contract/sharing.js";

const at = (name: string) => timestamp(name, { precision: 3, withTimezone: true, mode: "date" });
const createdAt = () => at("created_at").notNull().defaultNow();
const updatedAt = () => at("updated_at").notNull().defaultNow();

// ---- Tables owned by better-auth (field names are the ones it expects). ----

export const user = pgTable("user", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  // The admin plugin's fields (DESIGN section 8): `admin` or `member`; a banned user is "disabled".
  role: text("role").notNull().default("member"),
  banned: boolean("banned").notNull().default(false),
  banReason: text("ban_reason"),
  banExpires: at("ban_expires"),
  /**
   * When the user was last active, kept when their sessions go (disabling ends them all); while
   * they have sessions, the newest session's refresh is the fresher figure (operators/users.ts).
   */
  lastActiveAt: at("last_active_at"),
  /**
   * The languages the person's browser asked for when they last signed in (Accept-Language, most
   * wanted first, comma-separated): what the server's own texts (reminders, alerts) are written
   * in while the person has chosen no language in settings.
   */
  languages: text("languages"),
});

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: at("expires_at").notNull(),
    token: text("token").notNull().unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    impersonatedBy: text("impersonated_by"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
  },
  (t) => [index("session_user_id_idx").on(t.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    // OAuth tokens are stored encrypted (see auth/token-cipher.ts), never in plaintext.
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: at("access_token_expires_at"),
    refreshTokenExpiresAt: at("refresh_token_expires_at"),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("account_user_id_idx").on(t.userId),
    // One linked account per provider and user: the API addresses accounts by provider.
    uniqueIndex("account_user_provider_idx").on(t.userId, t.providerId),
  ],
);

export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: at("expires_at").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("verification_identifier_idx").on(t.identifier)],
);

// ---- Tables of the spec's resources. ----

export const dashboards = pgTable(
  "dashboards",
  {
    id: uuid("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    isPublic: boolean("is_public").notNull().default(false),
    /** The personal look, `{accent?, background?}` (DESIGN section 13); `{}` is the plain look. */
    look: jsonb("look").$type<Look>().notNull().default(sql`'{}'::jsonb`),
    /** 1 on create, +1 on every change: a write naming an older one is refused (DESIGN section 14). */
    revision: integer("revision").notNull().default(1),
    /** The `key` of the provisioning file it comes from (DESIGN section 17); null for the app's own. */
    provisionKey: text("provision_key"),
    /** Provisioned and not `editable: true`: every write through the app is 409 `provisioned`. */
    provisionLocked: boolean("provision_locked").notNull().default(false),
    /** The provisioned content last applied, hashed: an unchanged file changes nothing. */
    provisionHash: text("provision_hash"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("dashboards_user_idx").on(t.userId, t.createdAt),
    uniqueIndex("dashboards_provision_key_idx").on(t.provisionKey),
  ],
);

export const widgets = pgTable(
  "widgets",
  {
    id: uuid("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    dashboardId: uuid("dashboard_id")
      .notNull()
      .references(() => dashboards.id, { onDelete: "cascade" }),
    widgetType: text("widget_type").notNull(),
    // Pixels, stored exactly as sent (the spec's unit); doubles keep fractional values intact.
    height: doublePrecision("height").notNull(),
    width: doublePrecision("width").notNull(),
    positionX: doublePrecision("position_x").notNull(),
    positionY: doublePrecision("position_y").notNull(),
    config: jsonb("config").notNull().default(sql`'{}'::jsonb`),
    /** 1 on create, +1 on every change: a write naming an older one is refused (DESIGN section 14). */
    revision: integer("revision").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("widgets_dashboard_idx").on(t.dashboardId, t.createdAt),
    index("widgets_user_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * How many times each user's dashboards and widgets have been written: bumped in the transaction of
 * every such write, so a PostgreSQL instance can tell with one indexed read whether the lists it
 * answered from its cache are still the ones in the database (db/revisions.ts).
 */
export const dataRevisions = pgTable("data_revisions", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  revision: bigint("revision", { mode: "number" }).notNull(),
});

export const settings = pgTable("settings", {
  id: uuid("id").primaryKey(),
  userId: text("user_id")
    .notNull()
    .unique()
    .references(() => user.id, { onDelete: "cascade" }),
  lastDashboardId: uuid("last_dashboard_id").references(() => dashboards.id, { onDelete: "set null" }),
  config: jsonb("config").notNull().default(sql`'{}'::jsonb`),
  onboardingCompleted: boolean("onboarding_completed").notNull().default(false),
  /**
   * The newest notification the user has seen, on any device: every notification with an id up
   * to it (UUIDv7, so time order) is read. No foreign key: notifications may live in Redis.
   */
  notificationsReadId: uuid("notifications_read_id"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** The SQL notification store (embedded and PostgreSQL-only modes). Ids are UUIDv7, so id order is time order. */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    message: text("message").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("notifications_user_idx").on(t.userId, t.id)],
);

/**
 * API keys (DESIGN section 9), in the shape @better-auth/api-key stores them: `key` is the
 * SHA-256 (base64url) of the key, `start` its first characters for display, `permissions` the
 * scopes as JSON (`{"scopes":["read"]}`).
 */
export const apikey = pgTable(
  "apikey",
  {
    id: text("id").primaryKey(),
    configId: text("config_id").notNull().default("default"),
    name: text("name"),
    start: text("start"),
    prefix: text("prefix"),
    key: text("key").notNull(),
    referenceId: text("reference_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    refillInterval: integer("refill_interval"),
    refillAmount: integer("refill_amount"),
    lastRefillAt: at("last_refill_at"),
    enabled: boolean("enabled").default(true),
    rateLimitEnabled: boolean("rate_limit_enabled").default(true),
    rateLimitTimeWindow: integer("rate_limit_time_window"),
    rateLimitMax: integer("rate_limit_max"),
    requestCount: integer("request_count").default(0),
    remaining: integer("remaining"),
    lastRequest: at("last_request"),
    expiresAt: at("expires_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    permissions: text("permissions"),
    metadata: text("metadata"),
  },
  (t) => [
    uniqueIndex("apikey_key_idx").on(t.key),
    index("apikey_reference_id_idx").on(t.referenceId),
    index("apikey_config_id_idx").on(t.configId),
  ],
);

export const authSchema = { user, session, account, verification, apikey };

/** Sign-up invites (DESIGN section 8): only the token's SHA-256 is kept; used once. */
export const invites = pgTable(
  "invites",
  {
    id: uuid("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    email: text("email"),
    role: text("role").notNull().default("member"),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    expiresAt: at("expires_at").notNull(),
    usedAt: at("used_at"),
    usedBy: text("used_by").references(() => user.id, { onDelete: "set null" }),
  },
  (t) => [index("invites_open_idx").on(t.expiresAt)],
);

/**
 * Facts about the instance claimed once by whoever gets there first (`first_admin`): an INSERT
 * that only one of two racing sign-ups can win.
 */
export const instanceClaims = pgTable("instance_claims", {
  name: text("name").primaryKey(),
  claimedAt: at("claimed_at").notNull().defaultNow(),
});

/**
 * A dashboard's history (DESIGN section 10): its document as it stood, newest first. Changes
 * within a minute of the newest version fold into it; the newest 50 are kept.
 */
export const dashboardVersions = pgTable(
  "dashboard_versions",
  {
    id: uuid("id").primaryKey(),
    dashboardId: uuid("dashboard_id")
      .notNull()
      .references(() => dashboards.id, { onDelete: "cascade" }),
    document: jsonb("document").notNull(),
    widgetCount: integer("widget_count").notNull(),
    /** Who made the change (the newest, when changes folded into one version); null before sharing. */
    byId: text("by_id"),
    byName: text("by_name"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("dashboard_versions_dashboard_idx").on(t.dashboardId, t.createdAt)],
);

// ---- Alerts (DESIGN section 11): the queue's jobs each widget has pending, and what has fired. ----

/**
 * The pending job of each alert rule a widget's config asks for, so an edit or a delete cancels
 * or keeps them in its own transaction. No foreign key: a deleted widget's rows are read (and
 * their jobs cancelled) by the listener after the widget row is gone.
 */
export const alertJobs = pgTable(
  "alert_jobs",
  {
    jobId: uuid("job_id").primaryKey(),
    widgetId: uuid("widget_id").notNull(),
    ruleKey: text("rule_key").notNull(),
    dueAt: at("due_at").notNull(),
  },
  (t) => [index("alert_jobs_widget_idx").on(t.widgetId)],
);

/** Each rule occurrence that produced a notification: a retried or repeated job finds its key here. */
export const alertFirings = pgTable("alert_firings", {
  key: text("key").primaryKey(),
  widgetId: uuid("widget_id")
    .notNull()
    .references(() => widgets.id, { onDelete: "cascade" }),
  firedAt: at("fired_at").notNull().defaultNow(),
});

/**
 * What the periodic watch pass remembers per widget between passes: a price alert's armed state
 * (hysteresis), the newest mail already announced. `key` names the thing watched within the widget.
 */
export const alertWatchStates = pgTable(
  "alert_watch_states",
  {
    widgetId: uuid("widget_id")
      .notNull()
      .references(() => widgets.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    state: jsonb("state").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.widgetId, t.key] })],
);

// ---- Web Push (DESIGN section 11). ----

/**
 * The browsers each user subscribed to push. The endpoint is the push service's URL for one
 * browser profile, so it is unique across users: a profile signed in as someone else re-owns it.
 */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: uuid("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /**
     * The sign-in that subscribed this browser: its session row going (signed out, revoked,
     * found expired) deletes the subscription with it, so a shared browser stops receiving the
     * previous user's notifications.
     */
    sessionId: text("session_id")
      .notNull()
      .references(() => session.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull().unique(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("push_subscriptions_user_idx").on(t.userId),
    index("push_subscriptions_session_idx").on(t.sessionId),
  ],
);

/**
 * The instance's VAPID key pair when the operator sets none: one row, written by whichever
 * instance gets there first, read by all (the private key encrypted with the token key).
 */
export const vapidKeys = pgTable("vapid_keys", {
  id: integer("id").primaryKey(),
  publicKey: text("public_key").notNull(),
  privateKey: text("private_key").notNull(),
  createdAt: createdAt(),
});

// ---- Sharing (DESIGN section 14): groups, dashboard members, who is watching. ----

/** Groups of users, managed by admins, that dashboards are shared with. */
export const groups = pgTable("groups", {
  id: uuid("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const groupMembers = pgTable(
  "group_members",
  {
    groupId: uuid("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index("group_members_user_idx").on(t.userId)],
);

/**
 * Whom a dashboard is shared with, and as what. `principal_id` is a user id, a group id, or ''
 * for everyone (a key column cannot be null). One column names either, so no foreign key: a row
 * naming a user or group that is gone matches nobody, and the members list leaves it out.
 */
export const dashboardMembers = pgTable(
  "dashboard_members",
  {
    dashboardId: uuid("dashboard_id")
      .notNull()
      .references(() => dashboards.id, { onDelete: "cascade" }),
    principalType: text("principal_type").$type<MemberType>().notNull(),
    principalId: text("principal_id").notNull(),
    role: text("role").$type<MemberRole>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.dashboardId, t.principalType, t.principalId] }),
    index("dashboard_members_principal_idx").on(t.principalType, t.principalId),
  ],
);

/**
 * Who watches which dashboard now, one row per open stream and dashboard, on every instance: the
 * instance that holds the stream writes it, refreshes `seen_at` with each heartbeat and deletes it
 * when the stream ends; rows of an instance that died age out (realtime/presence.ts).
 */
export const dashboardPresence = pgTable(
  "dashboard_presence",
  {
    streamId: uuid("stream_id").notNull(),
    dashboardId: uuid("dashboard_id")
      .notNull()
      .references(() => dashboards.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    editing: uuid("editing"),
    seenAt: at("seen_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.streamId, t.dashboardId] }),
    index("dashboard_presence_dashboard_idx").on(t.dashboardId),
  ],
);

// ---- Instance settings (issue 35): what admins change in the admin page, for every instance. ----

/**
 * One row per setting an admin has changed; an absent row means the environment's default.
 * Values are JSON checked by their contract when written (contract/instance-settings.ts).
 */
export const instanceSettings = pgTable("instance_settings", {
  name: text("name").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: updatedAt(),
  updatedBy: text("updated_by").references(() => user.id, { onDelete: "set null" }),
});

// ---- Integrations (DESIGN section 16): saved connections to the services widgets show. ----

/**
 * A connection to a service. `owner_id` null: an instance integration (an admin's, every user may
 * use it). `secrets` maps a secret's name to its value encrypted with the token key
 * (auth/token-cipher.ts); values are never answered, only the names.
 */
export const integrations = pgTable(
  "integrations",
  {
    id: uuid("id").primaryKey(),
    ownerId: text("owner_id").references(() => user.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    name: text("name").notNull(),
    url: text("url").notNull(),
    allowPrivate: boolean("allow_private").notNull().default(false),
    skipTlsVerify: boolean("skip_tls_verify").notNull().default(false),
    /** Admins only: widgets may act through it (toggle a light, stop a container); off by default. */
    allowActions: boolean("allow_actions").notNull().default(false),
    caCertificate: text("ca_certificate"),
    secrets: jsonb("secrets").$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    lastCheck: jsonb("last_check").$type<{ at: string; ok: boolean; latencyMs: number; detail: string }>(),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    /** The `key` of the provisioning file it comes from: changed there, never in the app (409). */
    provisionKey: text("provision_key"),
    provisionHash: text("provision_hash"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("integrations_owner_idx").on(t.ownerId),
    uniqueIndex("integrations_provision_key_idx").on(t.provisionKey),
  ],
);

// ---- Audit log (DESIGN section 17): what was done, by whom, kept 90 days. ----

/**
 * One thing someone did that admins may need to account for later (a widget action, an
 * integration saved). `actor_name` is kept as it was, so a deleted user's deeds still read.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: uuid("id").primaryKey(),
    at: at("at").notNull().defaultNow(),
    actorId: text("actor_id").references(() => user.id, { onDelete: "set null" }),
    actorName: text("actor_name").notNull(),
    action: text("action").notNull(),
    target: text("target").notNull(),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  },
  (t) => [index("audit_events_at_idx").on(t.at)],
);
