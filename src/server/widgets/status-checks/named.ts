import { and, asc, eq, inArray } from "drizzle-orm";
import type { StatusTargetResult } from "../../../contract/data.js";
import { isRecord } from "../../../contract/widget-kit/parse.js";
import { widgetDefinition } from "../../../widgets/index.js";
import type { Db } from "../../db/client.js";
import { dashboards, widgets } from "../../db/schema.js";
import { type CheckTarget, storedCheckStates } from "./stored.js";

/**
 * A Status widget's checks named from elsewhere (a bookmark's status dot names one by its widget
 * and target). Only a person's own Status widgets are theirs to name: a widget's `userId` is its
 * dashboard owner's, so a check on someone else's dashboard, shared or not, is never read.
 */
const STATUS_TYPE = "Status";

/** How a bookmark names a check: the Status widget and the target's id in its config. */
export interface CheckRef {
  widgetId: string;
  checkId: string;
}

export const checkRefKey = (ref: CheckRef) => `${ref.widgetId}|${ref.checkId}`;

const isTarget = (value: unknown): value is CheckTarget =>
  isRecord(value) &&
  typeof value.id === "string" &&
  typeof value.name === "string" &&
  typeof value.url === "string";

/** The targets of a stored Status config, read by the Status type's own parser, through the list. */
export function statusTargetsOf(config: unknown): CheckTarget[] {
  const definition = widgetDefinition(STATUS_TYPE);
  if (!definition) return [];
  const parsed = definition.parse(config) as { checks?: unknown };
  return Array.isArray(parsed.checks) ? parsed.checks.filter(isTarget) : [];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The named checks, with what the watch pass last recorded for each, by `checkRefKey`: only those
 * on `ownerId`'s own Status widgets, and with `publicOnly` only those on public dashboards (where
 * the Status widget shows visitors the same state itself). A name that leads nowhere is absent.
 */
export async function namedCheckStates(
  db: Db,
  ownerId: string,
  refs: readonly CheckRef[],
  { publicOnly }: { publicOnly: boolean },
): Promise<Map<string, StatusTargetResult>> {
  const found = new Map<string, StatusTargetResult>();
  const ids = [...new Set(refs.map((r) => r.widgetId).filter((id) => UUID.test(id)))];
  if (ids.length === 0) return found;
  const rows = await db
    .select({ id: widgets.id, config: widgets.config, isPublic: dashboards.isPublic })
    .from(widgets)
    .innerJoin(dashboards, eq(dashboards.id, widgets.dashboardId))
    .where(and(inArray(widgets.id, ids), eq(widgets.userId, ownerId), eq(widgets.widgetType, STATUS_TYPE)));
  for (const row of rows) {
    if (publicOnly && !row.isPublic) continue;
    const named = new Set(refs.filter((r) => r.widgetId === row.id).map((r) => r.checkId));
    const targets = statusTargetsOf(row.config).filter((t) => named.has(t.id));
    for (const result of await storedCheckStates(db, row.id, targets))
      found.set(checkRefKey({ widgetId: row.id, checkId: result.id }), result);
  }
  return found;
}

/** A check a person may name, for a settings list: where it is and what it checks. */
export interface NameableCheck {
  widgetId: string;
  checkId: string;
  name: string;
  url: string;
  dashboardId: string;
  dashboardName: string;
}

/** Enough for any settings list; more would be a page of its own. */
export const NAMEABLE_CHECKS_MAX = 500;

/** Every check of the person's own Status widgets, by dashboard name, then in each widget's order. */
export async function nameableChecks(db: Db, userId: string): Promise<NameableCheck[]> {
  const rows = await db
    .select({
      id: widgets.id,
      config: widgets.config,
      dashboardId: dashboards.id,
      dashboardName: dashboards.name,
    })
    .from(widgets)
    .innerJoin(dashboards, eq(dashboards.id, widgets.dashboardId))
    .where(and(eq(widgets.userId, userId), eq(widgets.widgetType, STATUS_TYPE)))
    .orderBy(asc(dashboards.name), asc(widgets.createdAt), asc(widgets.id));
  return rows
    .flatMap((row) =>
      statusTargetsOf(row.config).map((target) => ({
        widgetId: row.id,
        checkId: target.id,
        name: target.name,
        url: target.url,
        dashboardId: row.dashboardId,
        dashboardName: row.dashboardName,
      })),
    )
    .slice(0, NAMEABLE_CHECKS_MAX);
}
