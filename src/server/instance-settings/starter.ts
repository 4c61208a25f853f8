import { asc, eq } from "drizzle-orm";
import { isPrivateWidgetType } from "../../widgets/index.js";
import type { DashboardChanges } from "../db/changes.js";
import type { Db } from "../db/client.js";
import { toWidget } from "../db/records.js";
import { dashboards, widgets } from "../db/schema.js";
import { documentOf, readDocument } from "../portability/document.js";
import { createFromDocument } from "../portability/queries.js";

/** The starting dashboard's name, or null when it is gone. */
export async function dashboardName(db: Db, id: string): Promise<string | null> {
  const [row] = await db
    .select({ name: dashboards.name })
    .from(dashboards)
    .where(eq(dashboards.id, id))
    .limit(1);
  return row?.name ?? null;
}

/**
 * Gives a new account its copy of the starting dashboard, as an import of its export would: the
 * document is checked as an uploaded one is, and the write goes through the change seam (limits,
 * history). Widgets that read connected accounts (mail, calendars, issues) keep their place but
 * not their settings, which name the admin's own calendars and repositories; the newcomer
 * chooses their own. Answers the new dashboard's id, or null when the starting one is gone.
 */
export async function copyStarterDashboard(
  db: Db,
  changes: DashboardChanges,
  sourceId: string,
  userId: string,
  now: Date,
): Promise<string | null> {
  const [source] = await db.select().from(dashboards).where(eq(dashboards.id, sourceId)).limit(1);
  if (!source) return null;
  const rows = await db
    .select()
    .from(widgets)
    .where(eq(widgets.dashboardId, sourceId))
    .orderBy(asc(widgets.createdAt), asc(widgets.id));
  const exported = documentOf(source, rows.map(toWidget), now);
  const document = readDocument({
    ...exported,
    widgets: exported.widgets.map((widget) =>
      isPrivateWidgetType(widget.widgetType) ? { ...widget, config: {} } : widget,
    ),
  });
  const created = await changes.apply(db, (tx) =>
    createFromDocument(tx, userId, document.dashboard.name, document.widgets, document.dashboard.look),
  );
  return created.dashboard.id;
}
