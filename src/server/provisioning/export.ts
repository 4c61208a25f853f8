import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { asc, eq, inArray } from "drizzle-orm";
import { stringify } from "yaml";
import type { Db } from "../db/client.js";
import { toWidget } from "../db/records.js";
import { dashboardMembers, dashboards, groups, integrations, user, widgets } from "../db/schema.js";
import { documentOf } from "../portability/document.js";

/**
 * `npm run export-provisioning`: an instance's dashboards and integrations written as
 * provisioning files (DESIGN section 17), to start keeping a setup in version control. Secrets are
 * never written: each becomes an `${INTEGRATION_<KEY>_<NAME>}` placeholder to set in the
 * environment. Widgets name their integrations as `integration:<key>`.
 */
export interface ExportSummary {
  dashboards: number;
  integrations: number;
  files: string[];
}

/** A key from a name: lower case words joined by "-", with the id's tail so two "Home"s differ. */
function keyFor(name: string, id: string): string {
  const words = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `${words || "item"}-${id.replace(/-/g, "").slice(-6)}`;
}

const envName = (key: string, secret: string) =>
  `INTEGRATION_${key}_${secret}`.toUpperCase().replace(/[^A-Z0-9_]/g, "_");

function withReferences(value: unknown, keys: ReadonlyMap<string, string>, key?: string): unknown {
  if (typeof value === "string" && (key === "integrationId" || key === "integrationIds"))
    return keys.has(value) ? `integration:${keys.get(value)}` : value;
  if (Array.isArray(value))
    return value.map((v) => withReferences(v, keys, key === "integrationIds" ? key : undefined));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withReferences(v, keys, k)]));
  return value;
}

export async function exportProvisioning(db: Db, outDir: string, now = new Date()): Promise<ExportSummary> {
  const files: string[] = [];
  const save = async (relative: string, value: unknown, header: string) => {
    const target = path.join(outDir, relative);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, `${header}\n${stringify(value, { lineWidth: 0 })}`);
    files.push(relative);
  };

  const owners = new Map(
    (await db.select({ id: user.id, email: user.email }).from(user)).map((u) => [u.id, u.email]),
  );
  const integrationRows = await db.select().from(integrations).orderBy(asc(integrations.createdAt));
  const integrationKeys = new Map(integrationRows.map((r) => [r.id, r.provisionKey ?? keyFor(r.name, r.id)]));
  if (integrationRows.length > 0)
    await save(
      "integrations/exported.yaml",
      {
        integrations: integrationRows.map((row) => {
          const key = integrationKeys.get(row.id)!;
          return {
            key,
            kind: row.kind,
            name: row.name,
            url: row.url,
            ...(row.ownerId ? { owner: owners.get(row.ownerId) } : {}),
            ...(row.allowPrivate ? { allowPrivate: true } : {}),
            ...(row.skipTlsVerify ? { skipTlsVerify: true } : {}),
            ...(row.allowActions ? { allowActions: true } : {}),
            ...(row.caCertificate ? { caCertificate: row.caCertificate } : {}),
            ...(Object.keys(row.secrets).length > 0
              ? {
                  secrets: Object.fromEntries(
                    Object.keys(row.secrets).map((name) => [name, `\${${envName(key, name)}}`]),
                  ),
                }
              : {}),
          };
        }),
      },
      "# Exported by `npm run export-provisioning`. Secrets are not written: set each variable named below in the environment.",
    );

  const groupNames = new Map((await db.select().from(groups)).map((g) => [g.id, g.name]));
  const boards = await db.select().from(dashboards).orderBy(asc(dashboards.createdAt));
  for (const board of boards) {
    const key = board.provisionKey ?? keyFor(board.name, board.id);
    const rows = await db
      .select()
      .from(widgets)
      .where(eq(widgets.dashboardId, board.id))
      .orderBy(asc(widgets.id));
    const document = documentOf(board, rows.map(toWidget), now);
    const members = await db
      .select()
      .from(dashboardMembers)
      .where(inArray(dashboardMembers.dashboardId, [board.id]));
    const fileMembers = members.flatMap((m): Record<string, unknown>[] => {
      if (m.principalType === "everyone") return [{ everyone: true, role: m.role }];
      if (m.principalType === "group") {
        const name = groupNames.get(m.principalId);
        return name ? [{ group: name, role: m.role }] : [];
      }
      const email = owners.get(m.principalId);
      return email ? [{ email, role: m.role }] : [];
    });
    await save(
      `dashboards/${key}.yaml`,
      {
        key,
        owner: owners.get(board.userId),
        ...(board.provisionKey && !board.provisionLocked ? { editable: true } : {}),
        ...(fileMembers.length > 0 ? { members: fileMembers } : {}),
        ...document,
        widgets: document.widgets.map((w) => ({ ...w, config: withReferences(w.config, integrationKeys) })),
      },
      "# Exported by `npm run export-provisioning`: applied from PROVISIONING_DIR, read-only in the app unless editable: true.",
    );
  }
  return { dashboards: boards.length, integrations: integrationRows.length, files };
}
