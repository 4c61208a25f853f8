import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";

/**
 * PostgreSQL settings for a household, not a server: PGlite's defaults (shared_buffers 128 MB)
 * keep far more memory resident than a few users' dashboards ever touch. Measured in bench/lean
 * and bench/README.md.
 */
export const EMBEDDED_POSTGRESQL_CONF = [
  "shared_buffers=16MB",
  "wal_buffers=1MB",
  "work_mem=2MB",
  "maintenance_work_mem=8MB",
  "temp_buffers=1MB",
];

export interface EngineOptions {
  /** A directory, or "memory://" (tests). */
  dir: string;
  /** false reproduces PGlite's stock settings (for measuring them). */
  tuned: boolean;
}

export const isMemory = (dir: string) => dir.startsWith("memory://");

/** A directory PGlite has already initialised (initdb ran and finished). */
export const isInitialised = (dir: string) => isMemory(dir) || existsSync(path.join(dir, "PG_VERSION"));

export async function openEngine({ dir, tuned }: EngineOptions): Promise<PGlite> {
  if (!isMemory(dir)) mkdirSync(dir, { recursive: true });
  // Loaded here, in the thread that runs the engine: the server's own start does not pay for it.
  const { PGlite } = await import("@electric-sql/pglite");
  return PGlite.create(dir, tuned ? { postgresqlconf: EMBEDDED_POSTGRESQL_CONF } : {});
}
