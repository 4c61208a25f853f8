import type { TObject } from "@sinclair/typebox";
import type { Column } from "drizzle-orm";

/** ISO 8601 with milliseconds in UTC, the one timestamp format of the API. */
export const iso = (date: Date) => date.toISOString();
export const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * A resource's JSON is its contract schema's fields, in the schema's order, each read from the
 * table column of the same name (timestamps as ISO strings). Both the row mapper and the SQL that
 * builds the same JSON in the database come from here, so the field list is written once.
 */
export function jsonShape<S extends TObject>(schema: S, columns: Record<string, Column>) {
  const required = new Set(schema.required ?? []);
  // Fields without a column are worked out per caller (a dashboard's `access`): the row passed
  // in carries them, and `sqlObject` is given their SQL. Optional ones are left out when absent.
  const fields = Object.keys(schema.properties).map((field) => {
    const column = columns[field];
    return { field, column, timestamp: column?.dataType === "date", optional: !required.has(field) };
  });
  return {
    /** The JSON of one row as the contract spells it. */
    fromRow(row: Record<string, unknown>): unknown {
      const out: Record<string, unknown> = {};
      for (const { field, timestamp, optional } of fields) {
        const value = row[field];
        if (value === undefined && optional) continue;
        out[field] = timestamp && value instanceof Date ? iso(value) : value;
      }
      return out;
    },
    /**
     * `json_build_object(...)` of the same JSON, for statements that answer finished JSON text;
     * `computed` gives the SQL of each field without a column (optional ones may be left out).
     */
    sqlObject(computed: Record<string, string> = {}): string {
      const pairs = fields.flatMap(({ field, column, timestamp, optional }) => {
        if (column) return [`'${field}', ${timestamp ? isoSql(column.name) : column.name}`];
        if (computed[field] !== undefined) return [`'${field}', ${computed[field]}`];
        if (optional) return [];
        throw new Error(`no column or SQL for ${field}`);
      });
      return `json_build_object(${pairs.join(", ")})`;
    },
  };
}

/** ISO 8601 UTC with milliseconds, formatted by the database exactly as Date#toISOString would. */
export const isoSql = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Body fields that say which record a write is for, never what to store in it. */
const ADDRESSING = new Set(["id", "revision"]);

/**
 * The changes an update body asks for: each field its contract schema accepts (but `id`, which
 * names the record, and `revision`, the one the write expects) that the body carries. Unknown
 * fields never reach the database.
 */
export function changesFrom<S extends TObject>(schema: S, body: Record<string, unknown>) {
  const changes: Record<string, unknown> = { updatedAt: new Date() };
  for (const field of Object.keys(schema.properties)) {
    if (!ADDRESSING.has(field) && body[field] !== undefined) changes[field] = body[field];
  }
  return changes;
}
