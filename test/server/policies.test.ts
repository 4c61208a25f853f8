import { eq, getTableColumns } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/server/db/client.js";
import {
  dashboardMembers,
  dashboards,
  groupMembers,
  groups,
  user,
  widgets,
} from "../../src/server/db/schema.js";
import { type Actor, type UserActor, VISITOR } from "../../src/server/policies/actor.js";
import {
  accessSql,
  can,
  type DashboardAction,
  type DashboardFacts,
  dashboardFor,
  dashboardsWhere,
  widgetsWhere,
} from "../../src/server/policies/records.js";
import { isPrivateWidgetType, PRIVATE_WIDGET_TYPES } from "../../src/widgets/index.js";

/**
 * Policies decide in two forms, `can` on a loaded dashboard and `dashboardsWhere` / `widgetsWhere`
 * as SQL over many: they must always agree, or a list would show what a read refuses.
 */
describe("one rule, on a loaded row and in SQL", () => {
  let database: Database;
  const ACTIONS: DashboardAction[] = ["read", "act", "edit", "manage"];
  const people = ["policy-ada", "policy-eve"];
  // Members of Ada's first (private) dashboard: a viewer by name, an editor through a group, and
  // everyone as viewer on Eve's first; plus an admin who is no member of anything.
  const members = ["policy-vic", "policy-ed", "policy-root"];
  const actorOf = (id: string, role: "admin" | "member" = "member"): UserActor => ({
    kind: "user",
    via: "session",
    user: { id, name: id, email: `${id}@example.test`, image: null },
    role,
    session: { id: "session", expiresAt: Date.now() + 60_000 },
    credentials: {},
  });
  const actors: [string, Actor][] = [
    ...people.map((id): [string, Actor] => [id, actorOf(id)]),
    ["policy-vic", actorOf("policy-vic")],
    ["policy-ed", actorOf("policy-ed")],
    ["policy-root (admin)", actorOf("policy-root", "admin")],
    ["visitor", VISITOR],
  ];

  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: null, pgliteDir: "memory://" });
    await database.migrate();
    const { db } = database;
    const now = new Date();
    let n = 0;
    const id = () => `0190d4a0-0000-7000-8000-${String(++n).padStart(12, "0")}`;
    for (const userId of members)
      await db.insert(user).values({ id: userId, name: userId, email: `${userId}@example.test` });
    const groupId = id();
    await db.insert(groups).values({ id: groupId, name: "editors" });
    await db.insert(groupMembers).values({ groupId, userId: "policy-ed" });
    for (const userId of people) {
      await db.insert(user).values({ id: userId, name: userId, email: `${userId}@example.test` });
      for (const isPublic of [false, true]) {
        const dashboardId = id();
        await db
          .insert(dashboards)
          // The published ones are provisioned read-only, so the lock is in every comparison below.
          .values({
            id: dashboardId,
            userId,
            name: "d",
            isPublic,
            provisionLocked: isPublic,
            createdAt: now,
            updatedAt: now,
          });
        for (const widgetType of ["Clock", PRIVATE_WIDGET_TYPES[0]!])
          await db.insert(widgets).values({
            id: id(),
            userId,
            dashboardId,
            widgetType,
            height: 1,
            width: 1,
            positionX: 0,
            positionY: 0,
            createdAt: now,
            updatedAt: now,
          });
      }
    }
    const [adaPrivate, , evePrivate] = await db.select().from(dashboards).orderBy(dashboards.id);
    await db.insert(dashboardMembers).values([
      { dashboardId: adaPrivate!.id, principalType: "user", principalId: "policy-vic", role: "viewer" },
      { dashboardId: adaPrivate!.id, principalType: "group", principalId: groupId, role: "editor" },
      { dashboardId: evePrivate!.id, principalType: "everyone", principalId: "", role: "viewer" },
    ]);
  });
  afterAll(() => database?.close());

  it("selects exactly the dashboards and widgets `can` allows, for every actor and action", async () => {
    const { db } = database;
    const allWidgets = await db.select().from(widgets);
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
    let memberships = 0;
    for (const [name, actor] of actors) {
      // As a loaded row: with the actor's access as a member, which `can` reads.
      const allDashboards = await db
        .select({ ...getTableColumns(dashboards), access: accessSql(actor) })
        .from(dashboards);
      memberships += allDashboards.filter((d) => d.access === "viewer" || d.access === "editor").length;
      const byId = new Map(allDashboards.map((d) => [d.id, d]));
      for (const action of ACTIONS) {
        const label = `${name} ${action}`;
        const allowed = allDashboards.filter((d) => can(actor, action, d));
        expect(ids(await db.select().from(dashboards).where(dashboardsWhere(actor, action))), label).toEqual(
          ids(allowed),
        );
        const visible = allWidgets.filter(
          (w) =>
            can(actor, action, byId.get(w.dashboardId)!) &&
            (actor.kind === "user" || !isPrivateWidgetType(w.widgetType)),
        );
        expect(ids(await db.select().from(widgets).where(widgetsWhere(actor, action))), label).toEqual(
          ids(visible),
        );
        for (const d of allDashboards)
          expect((await dashboardFor(db, actor, action, d.id))?.id ?? null, `${label} ${d.id}`).toBe(
            can(actor, action, d) ? d.id : null,
          );
      }
    }
    // Vic and Ed on Ada's, and everyone but Eve on Eve's: the membership rows did reach people.
    expect(memberships).toBe(2 + 4);
  });

  it("gives members their role's rights, and admins reading and managing but not editing", () => {
    const ada = { userId: "policy-ada", isPublic: false };
    const expected: [UserActor, DashboardFacts, Record<DashboardAction, boolean>][] = [
      [
        actorOf("policy-vic"),
        { ...ada, access: "viewer" },
        { read: true, act: false, edit: false, manage: false },
      ],
      [
        actorOf("policy-ed"),
        { ...ada, access: "editor" },
        { read: true, act: true, edit: true, manage: false },
      ],
      [
        actorOf("policy-eve"),
        { ...ada, access: null },
        { read: false, act: false, edit: false, manage: false },
      ],
      [
        actorOf("policy-root", "admin"),
        { ...ada, access: null },
        { read: true, act: false, edit: false, manage: true },
      ],
      [
        actorOf("policy-root", "admin"),
        { ...ada, access: "editor" },
        { read: true, act: true, edit: true, manage: true },
      ],
      // Provisioned read-only: its file changes it; people still read it and act through its widgets.
      [
        actorOf("policy-ada"),
        { ...ada, provisionLocked: true },
        { read: true, act: true, edit: false, manage: false },
      ],
      [
        actorOf("policy-root", "admin"),
        { ...ada, provisionLocked: true, access: "editor" },
        { read: true, act: true, edit: false, manage: false },
      ],
    ];
    for (const [actor, facts, rights] of expected)
      for (const action of ACTIONS)
        expect(can(actor, action, facts), `${actor.user.id} ${action}`).toBe(rights[action]);
  });

  it("lets an owner do everything with their own dashboard, others nothing, visitors read published ones", () => {
    const [ada, eve] = people.map((id) => actorOf(id)) as [UserActor, UserActor];
    const mine = { userId: ada.user.id, isPublic: false };
    const published = { userId: ada.user.id, isPublic: true };
    for (const action of ACTIONS) {
      expect(can(ada, action, mine)).toBe(true);
      expect(can(eve, action, published)).toBe(false);
      expect(can(VISITOR, action, mine)).toBe(false);
      expect(can(VISITOR, action, published)).toBe(action === "read");
    }
  });

  it("reads a widget's own dashboard when the query joins dashboards too", async () => {
    const { db } = database;
    const rows = await db
      .select({ id: widgets.id })
      .from(widgets)
      .innerJoin(dashboards, eq(dashboards.id, widgets.dashboardId))
      .where(widgetsWhere(VISITOR, "read"));
    expect(rows).toHaveLength(2);
  });
});
