import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/server/db/client.js";
import { dashboards, user, widgets } from "../../src/server/db/schema.js";
import { type Actor, type UserActor, VISITOR } from "../../src/server/policies/actor.js";
import {
  can,
  type DashboardAction,
  dashboardFor,
  dashboardsWhere,
  widgetsWhere,
} from "../../src/server/policies/records.js";
import { isPrivateWidgetType, PRIVATE_WIDGET_TYPES } from "../../src/widgets/index.js";

/**
 * Policies decide in two forms, `can` on a loaded dashboard and `dashboardsWhere` / `widgetsWhere`
 * as SQL over many: they must always agree, or a list would show what a read refuses.
 */
describe("one owner rule, on a loaded row and in SQL", () => {
  let database: Database;
  const ACTIONS: DashboardAction[] = ["read", "edit", "manage"];
  const people = ["policy-ada", "policy-eve"];
  const actorOf = (id: string): UserActor => ({
    kind: "user",
    via: "session",
    user: { id, name: id, email: `${id}@example.test`, image: null },
    role: "member",
    session: { id: "session", expiresAt: Date.now() + 60_000 },
    credentials: {},
  });
  const actors: [string, Actor][] = [
    ...people.map((id): [string, Actor] => [id, actorOf(id)]),
    ["visitor", VISITOR],
  ];

  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: null, pgliteDir: "memory://" });
    await database.migrate();
    const { db } = database;
    const now = new Date();
    let n = 0;
    const id = () => `0190d4a0-0000-7000-8000-${String(++n).padStart(12, "0")}`;
    for (const userId of people) {
      await db.insert(user).values({ id: userId, name: userId, email: `${userId}@example.test` });
      for (const isPublic of [false, true]) {
        const dashboardId = id();
        await db
          .insert(dashboards)
          .values({ id: dashboardId, userId, name: "d", isPublic, createdAt: now, updatedAt: now });
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
  });
  afterAll(() => database?.close());

  it("selects exactly the dashboards and widgets `can` allows, for every actor and action", async () => {
    const { db } = database;
    const allDashboards = await db.select().from(dashboards);
    const allWidgets = await db.select().from(widgets);
    const byId = new Map(allDashboards.map((d) => [d.id, d]));
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
    for (const [name, actor] of actors) {
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
  });

  it("lets an owner do everything with their dashboard, others nothing, visitors read published ones", () => {
    const [ada, eve] = people.map(actorOf) as [UserActor, UserActor];
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
