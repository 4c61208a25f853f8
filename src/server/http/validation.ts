import { CONFIG_MAX_BYTES } from "../../widgets/index.js";
import { badRequest } from "./errors.js";

/** Checks JSON Schema cannot express: the serialized size of a free-form config. */
export function assertConfigSize(config: unknown) {
  if (config !== undefined && Buffer.byteLength(JSON.stringify(config)) > CONFIG_MAX_BYTES) {
    throw badRequest(`config is larger than ${CONFIG_MAX_BYTES / 1024} KiB`, [
      { path: "/config", message: `must be at most ${CONFIG_MAX_BYTES} bytes serialized` },
    ]);
  }
}

/** PostgreSQL 23503: a referenced row vanished between a check and the write that relied on it. */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === "23503" || e?.cause?.code === "23503";
}
