import { and, asc, eq, inArray, isNotNull, notInArray, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { DocumentWidget } from "../../contract/dashboard-document.js";
import type { MemberInput } from "../../contract/sharing.js";
import type { Applied, DashboardChange, DashboardChanges } from "../db/changes.js";
import type { Db } from "../db/client.js";
import { toWidget } from "../db/records.js";
import { dashboards, groups, user, widgets } from "../db/schema.js";
import { ProblemError } from "../http/errors.js";
import { insertWidgets } from "../portability/queries.js";
import { toDashboard } from "../resources/dashboards/queries.js";
import { type AccessChange, accessChanges, readersOf } from "../sharing/access-changes.js";
import { replaceMembers } from "../sharing/members.js";
import type { ProvisionedDashboard, ProvisioningProblem } from "./read.js";
import { INTEGRATION_REFERENCE } from "./spec.js";

export type Outcome = "created" | "updated" | "unchanged" | "pending";

export interface DashboardApplyDeps {
  db: Db;
  changes: DashboardChanges;
  /** The provisioned integrations' ids by key, for `integration:<key>` in widget configs. */
  integrationIds: ReadonlyMap<string, string>;
  problems: ProvisioningProblem[];
  /** An account was just created: dashboards applied with problems are applied again. */
  retryPartial: boolean;
  /** Tells the people whose access a committed apply changed (sharing/access-changes.ts). */
  announceAccess(dashboardIds: readonly string[], changes: readonly AccessChange[]): Promise<void>;
}

/** Whose access a written apply changed, to tell them once it committed; null when nothing was written. */
type Announced = { id: string; access: AccessChange[] } | null;

/** The account an email names (any case); the first admin when none is named. */
async function ownerOf(db: Db, email: string | undefined): Promise<string | null> {
  const [row] = await db
    .select({ id: user.id })
    .from(user)
    .where(email ? eq(sql`lower(${user.email})`, email.toLowerCase()) : eq(user.role, "admin"))
    .orderBy(asc(user.createdAt))
    .limit(1);
  return row?.id ?? null;
}

/**
 * The widgets with `integration:<key>` in their `integrationId` (or `integrationIds`, at any
 * depth: a Calendar's sources) replaced by that integration's id; an unknown key is a problem
 * with its path, and the widget keeps no reference.
 */
function withIntegrations(
  list: readonly DocumentWidget[],
  ids: ReadonlyMap<string, string>,
  report: (path: string, message: string) => void,
): DocumentWidget[] {
  const resolve = (value: string, at: string): string | undefined => {
    const key = INTEGRATION_REFERENCE.exec(value)?.[1];
    if (key === undefined) return value;
    const id = ids.get(key);
    if (!id) report(at, `names the integration ${key}, which no integrations file provides`);
    return id;
  };
  const walk = (value: unknown, at: string, key?: string): unknown => {
    if (typeof value === "string" && key === "integrationId") return resolve(value, at);
    if (Array.isArray(value))
      return key === "integrationIds"
        ? value.flatMap((v, i) => (typeof v === "string" ? (resolve(v, `${at}/${i}`) ?? []) : [v]))
        : value.map((v, i) => walk(v, `${at}/${i}`));
    if (typeof value === "object" && value !== null)
      return Object.fromEntries(
        Object.entries(value).flatMap(([k, v]) => {
          const next = walk(v, `${at}/${k}`, k);
          return next === undefined ? [] : [[k, next]];
        }),
      );
    return value;
  };
  return list.map((w, i) => ({
    ...w,
    config: walk(w.config, `/widgets/${i}/config`) as DocumentWidget["config"],
  }));
}

/** The file's members as the sharing API takes them; unknown groups are problems, left out. */
async function memberInputs(
  db: Db,
  spec: ProvisionedDashboard,
  report: (path: string, message: string) => void,
): Promise<{ inputs: MemberInput[]; paths: string[] }> {
  const members = spec.members ?? [];
  const names = members.flatMap((m) => ("group" in m ? [m.group] : []));
  const byName = new Map(
    names.length === 0
      ? []
      : (
          await db
            .select({ id: groups.id, name: groups.name })
            .from(groups)
            .where(inArray(groups.name, names))
        ).map((g) => [g.name, g.id]),
  );
  const inputs: MemberInput[] = [];
  const paths: string[] = [];
  members.forEach((member, index) => {
    const at = `/members/${index}`;
    if ("everyone" in member) inputs.push({ type: "everyone", role: member.role });
    else if ("email" in member) inputs.push({ type: "user", email: member.email, role: member.role });
    else {
      const id = byName.get(member.group);
      if (!id) {
        report(at, `no group named ${JSON.stringify(member.group)} on this instance`);
        return;
      }
      inputs.push({ type: "group", id, role: member.role });
    }
    paths.push(at);
  });
  return { inputs, paths };
}

/**
 * The file's members set on the dashboard. A member the sharing rules refuse (an unknown email,
 * the owner) is reported with the file's path and left out; the others are kept.
 */
async function setMembers(
  tx: Db,
  dashboard: { id: string; userId: string },
  spec: ProvisionedDashboard,
  report: (path: string, message: string) => void,
) {
  const { inputs, paths } = await memberInputs(tx, spec, report);
  try {
    await replaceMembers(tx, dashboard, inputs);
  } catch (error) {
    if (!(error instanceof ProblemError) || !error.extra.errors) throw error;
    const refused = new Set<number>();
    for (const e of error.extra.errors) {
      const index = Number(/^\/members\/(\d+)/.exec(e.path)?.[1]);
      if (Number.isInteger(index)) {
        refused.add(index);
        report(paths[index] ?? e.path, e.message);
      }
    }
    await replaceMembers(
      tx,
      dashboard,
      inputs.filter((_, i) => !refused.has(i)),
    );
  }
}

/**
 * One dashboard file applied: created for its owner, or brought in line with the file when the
 * file changed since (its widgets replaced, name, look, lock and members set); nothing when it did
 * not. Serialised per key across instances, and the hash read under that lock, so two instances
 * applying at once write it once.
 */
export async function applyDashboard(deps: DashboardApplyDeps, spec: ProvisionedDashboard): Promise<Outcome> {
  const report = (path: string, message: string) => deps.problems.push({ file: spec.file, path, message });
  const ownerId = await ownerOf(deps.db, spec.owner);
  if (!ownerId) {
    report(
      "/owner",
      spec.owner
        ? `no account with the email ${spec.owner} yet; applied when it signs up`
        : "names no owner and there is no admin yet; applied when the first account signs up",
    );
    return "pending";
  }
  const locked = spec.editable !== true;
  const reported = deps.problems.length;
  let outcome: Outcome = "unchanged";
  const applied = await deps.changes.apply(deps.db, async (tx): Promise<Applied<Announced>> => {
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(hashtextextended(${`tessera:provision:${spec.key}`}, 0))`,
    );
    const [row] = await tx.select().from(dashboards).where(eq(dashboards.provisionKey, spec.key)).limit(1);
    const hash = `${spec.hash}:${ownerId}`;
    if (row && row.provisionHash === hash) return { result: null, changes: [] };
    // Applied before with a problem (a member without an account): tried again only on a sign-up.
    if (row && row.provisionHash === `${hash}:partial` && !deps.retryPartial)
      return { result: null, changes: [] };
    // Who reads it before the file is applied, to tell exactly those whose access it changes.
    const before = row ? await readersOf(tx, [row.id]) : null;
    const list = withIntegrations(spec.document.widgets, deps.integrationIds, report);
    const changes: DashboardChange[] = [];
    const now = new Date();
    const fields = {
      name: spec.document.dashboard.name.trim(),
      look: spec.document.dashboard.look ?? {},
      userId: ownerId,
      provisionKey: spec.key,
      provisionLocked: locked,
      provisionHash: hash,
      updatedAt: now,
    };
    let id: string;
    if (!row) {
      const [created] = await tx
        .insert(dashboards)
        .values({ id: uuidv7(), isPublic: false, createdAt: now, ...fields })
        .returning();
      id = created!.id;
      changes.push({ kind: "dashboard.created", dashboard: toDashboard({ ...created!, access: "owner" }) });
      outcome = "created";
    } else {
      id = row.id;
      const removed = await tx.delete(widgets).where(eq(widgets.dashboardId, id)).returning();
      for (const gone of removed) changes.push({ kind: "widget.deleted", widget: toWidget(gone) });
      const [updated] = await tx
        .update(dashboards)
        .set({ ...fields, revision: sql`${dashboards.revision} + 1` })
        .where(eq(dashboards.id, id))
        .returning();
      changes.push({ kind: "dashboard.updated", dashboard: toDashboard({ ...updated!, access: "owner" }) });
      outcome = "updated";
    }
    for (const widget of await insertWidgets(tx, ownerId, id, list))
      changes.push({ kind: "widget.created", widget });
    await setMembers(tx, { id, userId: ownerId }, spec, report);
    // A new dashboard's owner learns of it from dashboard.created; its members from this.
    const access = accessChanges(
      before ?? new Map([[id, new Map([[ownerId, "owner" as const]])]]),
      await readersOf(tx, [id]),
    );
    // Applied with problems (a member without an account yet): the next run tries again.
    if (deps.problems.length > reported)
      await tx
        .update(dashboards)
        .set({ provisionHash: `${hash}:partial` })
        .where(eq(dashboards.id, id));
    return { result: { id, access }, changes };
  });
  if (applied && applied.access.length > 0) await deps.announceAccess([applied.id], applied.access);
  return outcome;
}

/** Provisioned dashboards whose files are gone, removed with their widgets; how many. */
export async function removeDashboardsBut(db: Db, changes: DashboardChanges, keys: readonly string[]) {
  const gone = await db
    .select({ id: dashboards.id })
    .from(dashboards)
    .where(
      and(
        isNotNull(dashboards.provisionKey),
        keys.length > 0 ? notInArray(dashboards.provisionKey, [...keys]) : undefined,
      ),
    );
  for (const { id } of gone)
    await changes.apply(db, async (tx): Promise<Applied<null>> => {
      const removedWidgets = await tx.select().from(widgets).where(eq(widgets.dashboardId, id));
      const [row] = await tx.delete(dashboards).where(eq(dashboards.id, id)).returning();
      if (!row) return { result: null, changes: [] };
      return {
        result: null,
        changes: [
          {
            kind: "dashboard.deleted",
            dashboard: toDashboard({ ...row, access: "owner" }),
            widgets: removedWidgets.map(toWidget),
          },
        ],
      };
    });
  return gone.length;
}
