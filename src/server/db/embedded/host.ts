import type { PGlite, Transaction } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import type { HostRequest, QueryResult } from "./protocol.js";

const ROLLBACK = Symbol("rollback");
type Parsers = Record<number, (value: string) => string>;

/**
 * Executes requests against the one PGlite session it owns. It runs wherever PGlite lives: in the
 * database thread normally, or on the event loop when measured that way (bench/lean).
 */
export function createHost(pg: PGlite) {
  const transactions = new Map<
    number,
    { tx: Transaction; finish(commit: boolean): void; done: Promise<unknown> }
  >();
  const parserCache = new Map<string, Parsers>();
  let nextTx = 1;

  const identityParsers = (oids: number[]): Parsers | undefined => {
    if (oids.length === 0) return undefined;
    const key = oids.join(",");
    let parsers = parserCache.get(key);
    if (!parsers) {
      parsers = Object.fromEntries(oids.map((oid) => [oid, (value: string) => value]));
      parserCache.set(key, parsers);
    }
    return parsers;
  };

  const shape = (result: { rows: unknown[]; fields: QueryResult["fields"]; affectedRows?: number }) => ({
    rows: result.rows,
    fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
    affectedRows: result.affectedRows,
  });

  function begin(): Promise<number> {
    return new Promise((opened, failed) => {
      const id = nextTx++;
      const done = pg.transaction(
        (tx) =>
          new Promise<void>((commit, rollback) => {
            transactions.set(id, {
              tx,
              finish: (ok) => (ok ? commit() : rollback(ROLLBACK)),
              done,
            });
            opened(id);
          }),
      );
      // Surfaced to whoever ends the transaction; a BEGIN that failed never registered it.
      done.catch((error) => {
        if (!transactions.has(id) && error !== ROLLBACK) failed(error);
      });
    });
  }

  async function end(id: number, commit: boolean) {
    const entry = transactions.get(id);
    if (!entry) throw new Error(`no open transaction ${id}`);
    entry.finish(commit);
    try {
      await entry.done;
    } catch (error) {
      if (error !== ROLLBACK) throw error;
    } finally {
      transactions.delete(id);
    }
    return null;
  }

  return {
    async handle(request: HostRequest): Promise<unknown> {
      switch (request.op) {
        case "query": {
          const target = request.tx === null ? pg : transactions.get(request.tx)?.tx;
          if (!target) throw new Error(`no open transaction ${request.tx}`);
          const result = await target.query(request.text, request.params, {
            rowMode: request.rowMode,
            parsers: identityParsers(request.rawTypes),
          });
          return shape(result);
        }
        case "prepared":
          return (await pg.query(request.text, request.params)).rows;
        case "exec":
          try {
            return (await pg.exec(request.text)).flatMap((result) => result.rows);
          } catch (error) {
            // A block that failed between its BEGIN and COMMIT leaves the one session aborted; a
            // pooled driver would drop that connection, here it is rolled back (a no-op otherwise).
            await pg.exec("ROLLBACK").catch(() => {});
            throw error;
          }
        case "begin":
          return begin();
        case "end":
          return end(request.tx, request.commit);
        case "migrate":
          await migrate(drizzle({ client: pg }), { migrationsFolder: request.folder });
          return null;
        case "close":
          await pg.close();
          return null;
      }
    },
  };
}

export type Host = ReturnType<typeof createHost>;
