import { eq, inArray } from "drizzle-orm";
import { PRIVATE_NETWORKS_MAX } from "../../contract/instance-settings.js";
import { SIGNUP_MODES } from "../../contract/operators.js";
import type { SignupMode } from "../config.js";
import type { Db } from "../db/client.js";
import { instanceSettings } from "../db/schema.js";
import { allowEntryProblem } from "../upstream/address-guard.js";

/** What admins chose, one row per setting; a setting without a row is nobody's choice. */
export interface StoredSettings {
  signupMode?: SignupMode;
  privateNetworks?: string[];
  starterDashboard?: string;
}

export type SettingName = keyof StoredSettings;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Whether a stored value is one its setting takes: the same rules a PUT is held to. */
const VALID: Record<SettingName, (value: unknown) => boolean> = {
  signupMode: (value) => (SIGNUP_MODES as readonly unknown[]).includes(value),
  privateNetworks: (value) =>
    Array.isArray(value) &&
    value.length <= PRIVATE_NETWORKS_MAX &&
    value.every((entry) => typeof entry === "string" && allowEntryProblem(entry) === null),
  starterDashboard: (value) => typeof value === "string" && UUID.test(value),
};
const NAMES = Object.keys(VALID) as SettingName[];

/**
 * The stored choices. A row that is not what its setting takes (written by hand, or by a future
 * version) is left out and named in `ignored`, so the setting falls back instead of failing start-up.
 */
export async function readStored(db: Db): Promise<{ stored: StoredSettings; ignored: string[] }> {
  const rows = await db
    .select({ name: instanceSettings.name, value: instanceSettings.value })
    .from(instanceSettings)
    .where(inArray(instanceSettings.name, [...NAMES]));
  const stored: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const row of rows) {
    const name = row.name as SettingName;
    if (VALID[name](row.value)) stored[name] = row.value;
    else ignored.push(name);
  }
  return { stored: stored as StoredSettings, ignored };
}

/**
 * Writes the given choices in one transaction: a value is stored, null removes the choice (the
 * setting is back to its default). Settings not in `changes` stay as they are.
 */
export async function writeStored(
  db: Db,
  changes: { [K in SettingName]?: StoredSettings[K] | null },
  by: string,
): Promise<void> {
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return;
  await db.transaction(async (tx) => {
    const now = new Date();
    for (const [name, value] of entries) {
      if (value === null) await tx.delete(instanceSettings).where(eq(instanceSettings.name, name));
      else
        await tx
          .insert(instanceSettings)
          .values({ name, value, updatedAt: now, updatedBy: by })
          .onConflictDoUpdate({
            target: instanceSettings.name,
            set: { value, updatedAt: now, updatedBy: by },
          });
    }
  });
}
