import { and, eq, sql } from "drizzle-orm";
import type { Widget } from "../../../contract/resources.js";
import { isRecord } from "../../../contract/widget-kit/parse.js";
import type { PatchWidgetInput } from "../../../contract/widget-patch.js";
import { widgetDefinition } from "../../../widgets/index.js";
import type { Applied } from "../../db/changes.js";
import type { Db } from "../../db/client.js";
import { toWidget } from "../../db/records.js";
import { widgets } from "../../db/schema.js";
import { badRequest, conflict } from "../../http/errors.js";
import { assertConfigSize } from "../../http/validation.js";
import type { Actor } from "../../policies/actor.js";
import { writableWidgets } from "../../policies/records.js";
import { applyOps } from "./apply-patch.js";
import { newConfigIssues } from "./config-check.js";
import { refuseIfReadable } from "./queries.js";

/** A patch names the first few problems of its result; one is enough to fix, a few help. */
const ISSUES_SHOWN = 10;

/**
 * JSON Patch on a widget's config (DESIGN section 14). The row is read FOR UPDATE, so concurrent
 * patches of one widget queue on it and each applies to what the one before it wrote: two editors
 * appending to one list both land, where two PUTs of whole configs would keep only the later.
 * Null when there is no widget the actor may read; 403 for one they may only read, as for PUT.
 */
export async function patchWidget(
  tx: Db,
  actor: Actor,
  input: PatchWidgetInput,
): Promise<Applied<Widget | null>> {
  const [row] = await tx
    .select()
    .from(widgets)
    .where(and(eq(widgets.id, input.id), writableWidgets(actor)))
    // Only the widget's row: the dashboards the policy reads to decide stay free for other writes.
    .for("update", { of: widgets });
  if (!row) {
    await refuseIfReadable(tx, actor, input.id);
    return { result: null, changes: [] };
  }
  const stored = toWidget(row);
  if (input.revision !== undefined && input.revision !== stored.revision)
    throw conflict("The widget", stored);

  const outcome = applyOps(stored.config, input.ops);
  if (!outcome.ok) throw conflict("The widget", stored);
  const config = outcome.config;
  if (!isRecord(config))
    throw badRequest("The patched config must be a JSON object", [
      { path: "/config", message: "must be an object" },
    ]);
  assertConfigSize(config);
  assertTypeAccepts(stored, config);

  const [updated] = await tx
    .update(widgets)
    .set({ config, revision: sql`${widgets.revision} + 1`, updatedAt: new Date() })
    .where(eq(widgets.id, row.id))
    .returning();
  const widget = toWidget(updated!);
  return { result: widget, changes: [{ kind: "widget.updated", widget, configChanged: true }] };
}

/** What the widget type's config schema refuses of what the patch brought (config-check.ts). */
function assertTypeAccepts(stored: Widget, config: Record<string, unknown>) {
  const definition = widgetDefinition(stored.widgetType);
  if (!definition) return;
  const issues = newConfigIssues(definition.config, stored.config, config);
  if (issues.length === 0) return;
  const errors = issues
    .slice(0, ISSUES_SHOWN)
    .map((issue) => ({ path: `/config${issue.path}`, message: issue.message }));
  throw badRequest(
    `The patched config is not a valid ${stored.widgetType} config: ${errors.map((e) => `${e.path} ${e.message}`).join("; ")}`,
    errors,
  );
}
