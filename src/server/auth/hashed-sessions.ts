import { createHash } from "node:crypto";
import type { BetterAuthOptions } from "better-auth";

/** What the session table keeps of a token: its SHA-256, hex (the migration writes the same). */
export const storedSessionToken = (token: string) => createHash("sha256").update(token).digest("hex");

type Adapter = Record<string, unknown>;
type AdapterFactory = (options: BetterAuthOptions) => Adapter;
interface Where {
  field: string;
  value: unknown;
}
interface Call {
  model?: string;
  where?: Where[];
  data?: Record<string, unknown>;
}

const isSession = (call: Call | undefined) => call?.model === "session";

/** The token the caller asked by, raw, so a row found by it can be handed back as asked. */
function askedToken(where: Where[] | undefined): string | undefined {
  const entry = where?.find((w) => w.field === "token");
  return typeof entry?.value === "string" ? entry.value : undefined;
}

const hashWhere = (where: Where[] | undefined) =>
  where?.map((w) =>
    w.field !== "token"
      ? w
      : {
          ...w,
          value: Array.isArray(w.value)
            ? w.value.map((v) => (typeof v === "string" ? storedSessionToken(v) : v))
            : typeof w.value === "string"
              ? storedSessionToken(w.value)
              : w.value,
        },
  );

/** A session row as better-auth expects it back: the raw token it knows, or none at all. */
function restore(row: unknown, raw: string | undefined): unknown {
  if (!row || typeof row !== "object" || !("token" in row)) return row;
  if (raw !== undefined) return { ...row, token: raw };
  // Found by something else (a user's sessions): the hash is no credential, and nobody needs it.
  const { token: _hash, ...rest } = row as Record<string, unknown>;
  return rest;
}

function wrap(adapter: Adapter): Adapter {
  return new Proxy(adapter, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property === "transaction")
        return (callback: (tx: Adapter) => Promise<unknown>) =>
          (value as (cb: (tx: Adapter) => Promise<unknown>) => Promise<unknown>).call(target, (tx) =>
            callback(wrap(tx)),
          );
      return async (call: Call, ...rest: unknown[]) => {
        if (!isSession(call)) return (value as (...a: unknown[]) => unknown).call(target, call, ...rest);
        const raw = typeof call.data?.token === "string" ? call.data.token : askedToken(call.where);
        const hashed: Call = {
          ...call,
          ...(call.where ? { where: hashWhere(call.where) } : {}),
          ...(typeof call.data?.token === "string"
            ? { data: { ...call.data, token: storedSessionToken(call.data.token) } }
            : {}),
        };
        const result = await (value as (...a: unknown[]) => Promise<unknown>).call(target, hashed, ...rest);
        return Array.isArray(result) ? result.map((row) => restore(row, raw)) : restore(result, raw);
      };
    },
  });
}

/**
 * better-auth keeps session tokens as they are; this adapter keeps only their hashes, so a read of
 * the database (a backup, a leaked dump) holds no usable credential. Rows are handed back to
 * better-auth with the raw token it asked by (or created), so its cookies and lookups work as
 * before; rows found by anything else come back without a token.
 */
export function withHashedSessionTokens(factory: AdapterFactory): AdapterFactory {
  return (options) => wrap(factory(options));
}
