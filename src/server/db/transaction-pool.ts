import type pg from "pg";

type Query = pg.PoolClient["query"];
type Release = pg.PoolClient["release"];
interface Guarded {
  /** The error of a failed BEGIN or ROLLBACK in the current checkout: the connection is unusable. */
  broken: Error | undefined;
  /** This checkout's release (the pool hands out a new one with every checkout). */
  release: Release;
}

const guarded = new WeakMap<pg.PoolClient, Guarded>();

const statementOf = (first: unknown) =>
  (typeof first === "string" ? first : ((first as { text?: string } | null)?.text ?? ""))
    .trimStart()
    .toLowerCase();

/**
 * drizzle-orm's node-postgres `transaction()` sends BEGIN before its try block, so a BEGIN that
 * fails (the server cut the connection) never releases the client, and a client whose ROLLBACK
 * failed goes back to the pool as if healthy. During a database outage both leak the pool until
 * requests hang. This wraps each checked-out client so a failed BEGIN releases (and destroys) it
 * at once and a failed ROLLBACK destroys it on release.
 */
function guard(client: pg.PoolClient): pg.PoolClient {
  let state = guarded.get(client);
  if (!state) {
    const created: Guarded = { broken: undefined, release: client.release };
    state = created;
    guarded.set(client, created);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const result = query(...args);
      if (!(result instanceof Promise)) return result;
      const statement = statementOf(args[0]);
      if (!statement.startsWith("begin") && !statement.startsWith("rollback")) return result;
      return result.catch((error: Error) => {
        created.broken = error;
        if (statement.startsWith("begin")) created.release.call(client, error);
        throw error;
      });
    }) as Query;
  }
  const current = state;
  current.broken = undefined;
  current.release = client.release;
  const release = current.release;
  client.release = ((error?: Error | boolean) => release.call(client, error ?? current.broken)) as Release;
  return client;
}

/** The pool as drizzle sees it (still a pg.Pool to its checks), handing out guarded clients. */
export function transactionSafePool(pool: pg.Pool): pg.Pool {
  return new Proxy(pool, {
    get(target, property) {
      if (property === "connect") return async () => guard(await target.connect());
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
