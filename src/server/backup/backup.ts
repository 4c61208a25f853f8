import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { Writable } from "node:stream";
import { sql } from "drizzle-orm";
import type { Database, Db } from "../db/client.js";
import { revisionsAfterRestore } from "../db/revisions.js";

export const BACKUP_FORMAT = "tessera.backup";
export const BACKUP_VERSION = 1;
/** Parents before children, so a restore's foreign keys hold row by row. Unknown tables go last. */
const ORDER = [
  "user",
  "session",
  "account",
  "verification",
  "apikey",
  "invites",
  "instance_claims",
  "settings",
  "dashboards",
  "widgets",
  "dashboard_versions",
  "notifications",
];
const BATCH = 500;

export class BackupError extends Error {}

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Instance bookkeeping rather than data: the revisions PostgreSQL instances check their cached
 * lists against. A restore sets them anew (`revisionsAfterRestore`).
 */
const NOT_BACKED_UP = new Set(["data_revisions"]);

async function tablesOf(db: Db): Promise<string[]> {
  const names = rowsOf(
    await db.execute(sql`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`),
  ).map((r) => String(r.tablename));
  const rank = (t: string) => (ORDER.includes(t) ? ORDER.indexOf(t) : ORDER.length);
  return names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** Writes with backpressure, so a large instance streams through constant memory. */
function writer(out: Writable) {
  return (chunk: string) =>
    new Promise<void>((resolve, reject) => {
      if (out.write(chunk)) return resolve();
      const drained = () => {
        out.off("error", failed);
        resolve();
      };
      const failed = (error: Error) => {
        out.off("drain", drained);
        reject(error);
      };
      out.once("drain", drained);
      out.once("error", failed);
    });
}

/**
 * Streams every table of the instance as NDJSON: a header line, one line per row (`row_to_json`,
 * so every column type survives the trip), and a trailer with the row count and the SHA-256 of
 * everything before it. One REPEATABLE READ transaction: the file is one consistent moment even
 * while the app keeps writing (on PostgreSQL; the embedded engine belongs to one process).
 */
export async function writeBackup(
  database: Database,
  out: Writable,
  progress: (table: string, rows: number) => void = () => {},
): Promise<{ rows: number }> {
  const hash = createHash("sha256");
  const write = writer(out);
  const line = async (value: unknown) => {
    const text = `${JSON.stringify(value)}\n`;
    hash.update(text);
    await write(text);
  };
  let rows = 0;
  await database.db.transaction(
    async (tx) => {
      await line({
        format: BACKUP_FORMAT,
        version: BACKUP_VERSION,
        createdAt: new Date().toISOString(),
        source: database.kind,
      });
      for (const table of (await tablesOf(tx)).filter((t) => !NOT_BACKED_UP.has(t))) {
        await line({ table });
        await tx.execute(
          sql.raw(
            `DECLARE backup_rows NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS j FROM ${ident(table)} t`,
          ),
        );
        for (;;) {
          const batch = rowsOf(await tx.execute(sql.raw(`FETCH ${BATCH} FROM backup_rows`)));
          if (batch.length === 0) break;
          for (const row of batch) {
            const text = `{"r":${row.j}}\n`;
            hash.update(text);
            await write(text);
          }
          rows += batch.length;
          progress(table, rows);
        }
        await tx.execute(sql.raw("CLOSE backup_rows"));
      }
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
  await write(`${JSON.stringify({ end: true, rows, sha256: hash.digest("hex") })}\n`);
  return { rows };
}

type Line = {
  format?: string;
  version?: number;
  table?: string;
  r?: unknown;
  end?: boolean;
  rows?: number;
  sha256?: string;
};

/** Reads a backup file line by line (constant memory), checking as it goes. */
async function* lines(file: string): AsyncGenerator<{ text: string; value: Line }> {
  const input = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const text of input) {
    let value: Line;
    try {
      value = JSON.parse(text) as Line;
    } catch {
      throw new BackupError("The file is damaged: a line is not JSON");
    }
    yield { text, value };
  }
}

/** The whole file checked against its trailer before anything is written. */
export async function verifyBackup(
  file: string,
): Promise<{ rows: number; createdAt: string; source: string }> {
  const hash = createHash("sha256");
  let header: Line | null = null;
  let rows = 0;
  let trailer: Line | null = null;
  for await (const { text, value } of lines(file)) {
    if (trailer) throw new BackupError("The file is damaged: lines after its end");
    if (!header) {
      if (value.format !== BACKUP_FORMAT) throw new BackupError("Not a Tessera backup file");
      if (typeof value.version !== "number" || value.version > BACKUP_VERSION)
        throw new BackupError(
          `This backup is format version ${value.version}; this Tessera reads up to ${BACKUP_VERSION}. Update Tessera to restore it.`,
        );
      header = value;
    } else if (value.end) {
      trailer = value;
      continue;
    } else if ("r" in value) rows++;
    hash.update(`${text}\n`);
  }
  if (!header) throw new BackupError("The file is empty");
  if (!trailer) throw new BackupError("The file is cut short: it has no end line");
  if (trailer.sha256 !== hash.digest("hex") || trailer.rows !== rows)
    throw new BackupError("The file is damaged: its checksum does not match its contents");
  return {
    rows,
    createdAt: String((header as { createdAt?: string }).createdAt),
    source: String((header as { source?: string }).source),
  };
}

/**
 * Restores a verified backup into `database` (migrated first) in one transaction: nothing is
 * written unless all of it is. A database that already has users is refused without `force`;
 * with it, every table is emptied first.
 */
export async function restoreBackup(
  database: Database,
  file: string,
  {
    force = false,
    progress = () => {},
  }: { force?: boolean; progress?: (table: string, rows: number) => void } = {},
): Promise<{ rows: number }> {
  await verifyBackup(file);
  await database.migrate();
  let rows = 0;
  await database.db.transaction(async (tx) => {
    const tables = await tablesOf(tx);
    const users = rowsOf(await tx.execute(sql`SELECT count(*)::int AS n FROM "user"`))[0]?.n as number;
    if (users > 0 && !force)
      throw new BackupError(
        `The target database already has ${users} user(s); restore with --force to replace everything in it`,
      );
    const [{ n: largestRevision }] = rowsOf(
      await tx.execute(sql`SELECT coalesce(max(revision), 0)::text AS n FROM data_revisions`),
    ) as [{ n: string }];
    if (force) await tx.execute(sql.raw(`TRUNCATE ${tables.map(ident).join(", ")} CASCADE`));
    let table: string | null = null;
    let batch: unknown[] = [];
    const flush = async () => {
      if (!table || batch.length === 0) return;
      if (!tables.includes(table))
        throw new BackupError(`The backup has a table this version does not know: ${table}`);
      await tx.execute(
        sql`INSERT INTO ${sql.raw(ident(table))} SELECT * FROM json_populate_recordset(NULL::${sql.raw(ident(table))}, ${JSON.stringify(batch)}::json)`,
      );
      rows += batch.length;
      progress(table, rows);
      batch = [];
    };
    let first = true;
    for await (const { value } of lines(file)) {
      if (first) {
        first = false;
        continue;
      }
      if (value.end) break;
      if (typeof value.table === "string") {
        await flush();
        table = value.table;
      } else {
        batch.push(value.r);
        if (batch.length >= BATCH) await flush();
      }
    }
    await flush();
    await revisionsAfterRestore(tx, Number(largestRevision));
  });
  return { rows };
}
