/**
 * Messages between the server's event loop and the thread that owns the embedded database. PGlite
 * has one session, so a transaction is pinned to it by id: its statements carry the id, and every
 * other statement waits in PGlite's own queue until it ends, exactly as in-process.
 */
export type HostRequest =
  | {
      op: "query";
      text: string;
      params: unknown[];
      rowMode: "array" | "object";
      /** Type OIDs returned as the server's text (Drizzle parses dates itself). */
      rawTypes: number[];
      tx: number | null;
    }
  | { op: "prepared"; name: string; text: string; params: unknown[] }
  /** Several statements without parameters (simple protocol), outside any pinned transaction: their rows, flattened. */
  | { op: "exec"; text: string }
  | { op: "begin" }
  | { op: "end"; tx: number; commit: boolean }
  | { op: "migrate"; folder: string }
  | { op: "close" };

export interface QueryResult {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

/** A database error's own fields (code, detail, constraint…), which callers test. */
export interface SerializedError {
  message: string;
  name: string;
  fields: Record<string, unknown>;
}

export type Envelope = { id: number; request: HostRequest };
export type Reply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: SerializedError };

export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { message: String(error), name: "Error", fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === "function" || typeof value === "object") continue;
    fields[key] = value;
  }
  return { message: error.message, name: error.name, fields };
}

export function deserializeError(error: SerializedError): Error {
  const rebuilt = new Error(error.message);
  rebuilt.name = error.name;
  Object.assign(rebuilt, error.fields);
  return rebuilt;
}
