import { and, desc, eq } from "drizzle-orm";
import {
  API_KEY_PREFIX,
  API_KEY_SCOPES,
  API_KEYS_PER_USER,
  type ApiKey,
  type ApiKeyScope,
  type CreatedApiKey,
  type Role,
} from "../../contract/operators.js";
import type { SessionUser } from "../../contract/session.js";
import type { Auth } from "../auth/auth.js";
import type { AccessConfig } from "../config.js";
import type { Db } from "../db/client.js";
import { apikey, user } from "../db/schema.js";
import { limitReached } from "../http/errors.js";
import type { RateLimitRule } from "../http/rate-limit.js";

const DAY_MS = 86_400_000;

/** Scopes are kept as the plugin's permissions: `{"scopes": [...]}`. */
function scopesOf(permissions: unknown): ApiKeyScope[] {
  let value = permissions;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  const scopes = (value as { scopes?: unknown } | null)?.scopes;
  return Array.isArray(scopes) ? API_KEY_SCOPES.filter((scope) => (scopes as unknown[]).includes(scope)) : [];
}

function present(row: typeof apikey.$inferSelect): ApiKey {
  return {
    id: row.id,
    name: row.name ?? "",
    scopes: scopesOf(row.permissions),
    start: `${row.start ?? API_KEY_PREFIX}…`,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastRequest?.toISOString() ?? null,
  };
}

/**
 * A user's API keys (DESIGN section 9): made and verified by @better-auth/api-key (random key,
 * stored as its SHA-256), listed and revoked here, always scoped to their owner.
 */
export function apiKeys(auth: Auth, db: Db) {
  return {
    async create(
      userId: string,
      input: { name: string; scopes: ApiKeyScope[]; expiresInDays?: number },
    ): Promise<CreatedApiKey> {
      const held = await db.$count(apikey, eq(apikey.referenceId, userId));
      if (held >= API_KEYS_PER_USER)
        throw limitReached(`At most ${API_KEYS_PER_USER} API keys per user; revoke one first`);
      // Server-side call without headers: permissions may only be set this way.
      const created = await auth.api.createApiKey({
        body: {
          userId,
          name: input.name,
          permissions: { scopes: [...input.scopes] },
          expiresIn: input.expiresInDays ? (input.expiresInDays * DAY_MS) / 1000 : undefined,
        },
      });
      const [row] = await db.select().from(apikey).where(eq(apikey.id, created.id)).limit(1);
      return { ...present(row!), key: created.key };
    },

    async list(userId: string): Promise<ApiKey[]> {
      const rows = await db
        .select()
        .from(apikey)
        .where(eq(apikey.referenceId, userId))
        .orderBy(desc(apikey.createdAt));
      return rows.map(present);
    },

    /** Whether the user had that key. Verification reads the row on every request: gone is gone. */
    async revoke(userId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(apikey)
        .where(and(eq(apikey.id, id), eq(apikey.referenceId, userId)))
        .returning({ id: apikey.id });
      return rows.length > 0;
    },

    /** The owner and scopes behind a presented key, or null when it opens nothing. */
    async verify(key: string): Promise<{
      user: SessionUser;
      role: Role;
      key: { id: string; scopes: ApiKeyScope[]; expiresAt: number | null };
    } | null> {
      if (!key.startsWith(API_KEY_PREFIX) || key.length > 200) return null;
      const result = await auth.api.verifyApiKey({ body: { key } });
      if (!result.valid || !result.key) return null;
      const [owner] = await db
        .select({
          id: user.id,
          name: user.name,
          email: user.email,
          image: user.image,
          role: user.role,
          banned: user.banned,
        })
        .from(user)
        .where(eq(user.id, result.key.referenceId))
        .limit(1);
      // The plugin never looks at the owner: a disabled user's keys stop here.
      if (!owner || owner.banned) return null;
      const expiresAt = result.key.expiresAt ? new Date(result.key.expiresAt).getTime() : null;
      return {
        user: { id: owner.id, name: owner.name, email: owner.email, image: owner.image },
        role: owner.role === "admin" ? "admin" : "member",
        key: { id: result.key.id, scopes: scopesOf(result.key.permissions), expiresAt },
      };
    },
  };
}

export type ApiKeys = ReturnType<typeof apiKeys>;

/** Every API key spends from its own budget, on every route (DESIGN section 9). */
export function apiKeyBudget(access: AccessConfig): RateLimitRule {
  return {
    name: "apikey",
    key: (request) =>
      request.actor?.kind === "user" && request.actor.via === "key" ? request.actor.key.id : null,
    limit: access.apiKeyPerMinute,
    burst: access.apiKeyBurst,
    windowMs: 60_000,
    detail: "This API key made too many requests; wait before trying again",
  };
}
