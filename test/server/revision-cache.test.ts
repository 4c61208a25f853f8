import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Applied, DashboardChanges } from "../../src/server/db/changes.js";
import { type Database, openDatabase } from "../../src/server/db/client.js";
import { bumpRevisions } from "../../src/server/db/revisions.js";
import { user } from "../../src/server/db/schema.js";
import { type UserActor, VISITOR } from "../../src/server/policies/actor.js";
import {
  createDashboard,
  listDashboardsJson,
  updateDashboard,
} from "../../src/server/resources/dashboards/queries.js";
import { createWidget, listDashboardWidgetsJson } from "../../src/server/resources/widgets/queries.js";
import { createPostgresDatabase } from "../support/services.js";

/**
 * Two instances on one PostgreSQL database, as behind a load balancer: each answers the hot lists
 * from its own memory while the user's data revision is unchanged, and a write on either is read
 * on both at once.
 */
describe("hot reads on PostgreSQL, cached per instance and checked against the data revision", () => {
  let pgDatabase: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let a: Database;
  let b: Database;
  const changes = new DashboardChanges();
  let users = 0;

  beforeAll(async () => {
    pgDatabase = await createPostgresDatabase();
    a = await openDatabase({ databaseUrl: pgDatabase.url, pgliteDir: "" });
    b = await openDatabase({ databaseUrl: pgDatabase.url, pgliteDir: "" });
    await a.migrate();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await pgDatabase?.drop();
  });

  async function newUser() {
    const id = `revisions-${++users}`;
    await a.db.insert(user).values({ id, name: id, email: `${id}@example.test` });
    return id;
  }
  const ownerOf = (id: string): UserActor => ({
    kind: "user",
    via: "session",
    user: { id, name: id, email: `${id}@example.test`, image: null },
    role: "member",
    session: { id: "session", expiresAt: Date.now() + 60_000 },
    credentials: {},
  });
  const names = async (database: Database, userId: string) =>
    (JSON.parse((await listDashboardsJson(database, userId, {})).json) as { name: string }[]).map(
      (d) => d.name,
    );
  const revisionOf = async (userId: string) => {
    const result = await a.db.execute(sql`SELECT revision FROM data_revisions WHERE user_id = ${userId}`);
    return (result as unknown as { rows: { revision: string }[] }).rows.map((r) => Number(r.revision));
  };

  it("reads a write made on the other instance at once", async () => {
    const userId = await newUser();
    expect(await names(a, userId)).toEqual([]);
    const created = await changes.apply(b.db, (tx) => createDashboard(tx, userId, "Home"));
    expect(await names(a, userId)).toEqual(["Home"]);
    expect(await listDashboardWidgetsJson(a, userId, created.id)).toBe("[]");

    await changes.apply(b.db, (tx) =>
      createWidget(tx, userId, {
        dashboardId: created.id,
        widgetType: "Clock",
        height: 1,
        width: 1,
        positionX: 0,
        positionY: 0,
      }),
    );
    expect(JSON.parse(await listDashboardWidgetsJson(a, userId, created.id))).toHaveLength(1);
    await changes.apply(a.db, (tx) => updateDashboard(tx, VISITOR, created.id, { name: "Not mine" }));
    expect(await names(b, userId)).toEqual(["Home"]);
    expect(await revisionOf(userId)).toEqual([2]);
  });

  it("answers from memory while the revision stands, and from the database once it moves", async () => {
    const userId = await newUser();
    await changes.apply(a.db, (tx) => createDashboard(tx, userId, "Before"));
    expect(await names(a, userId)).toEqual(["Before"]);
    // A change that does not move the revision (no Tessera code writes this way) stays unseen: the
    // answer really comes from memory.
    await a.pool!.query("UPDATE dashboards SET name = 'After' WHERE user_id = $1", [userId]);
    expect(await names(a, userId)).toEqual(["Before"]);
    expect(await names(b, userId)).toEqual(["After"]);
    await a.db.transaction((tx) => bumpRevisions(tx as never, [userId]));
    expect(await names(a, userId)).toEqual(["After"]);
  });

  it("keeps one user's writes apart from another's answers", async () => {
    const [first, second] = [await newUser(), await newUser()];
    await changes.apply(a.db, (tx) => createDashboard(tx, first, "First's"));
    expect(await names(a, second)).toEqual([]);
    await changes.apply(b.db, (tx) => createDashboard(tx, second, "Second's"));
    expect(await names(a, first)).toEqual(["First's"]);
    expect(await names(a, second)).toEqual(["Second's"]);
  });

  it("takes many concurrent writes of one user on both instances without a deadlock", async () => {
    const userId = await newUser();
    const home = await changes.apply(a.db, (tx) => createDashboard(tx, userId, "Home"));
    const writes = Array.from({ length: 40 }, (_, i) =>
      changes.apply<unknown>(
        i % 2 ? a.db : b.db,
        (tx): Promise<Applied<unknown>> =>
          i % 4 === 0
            ? updateDashboard(tx, ownerOf(userId), home.id, { name: `Home ${i}` })
            : createWidget(tx, userId, {
                dashboardId: home.id,
                widgetType: "Clock",
                height: 1,
                width: 1,
                positionX: i,
                positionY: 0,
              }),
      ),
    );
    await Promise.all(writes);
    expect(await revisionOf(userId)).toEqual([41]);
    expect(JSON.parse(await listDashboardWidgetsJson(b, userId, home.id))).toHaveLength(30);
  });

  it("checks the revisions of requests arriving together in one query, each user's own", async () => {
    const userIds = [await newUser(), await newUser(), await newUser()];
    for (const userId of userIds) await changes.apply(a.db, (tx) => createDashboard(tx, userId, userId));
    for (const userId of userIds) expect(await names(a, userId)).toEqual([userId]);
    const [, moved] = userIds as [string, string, string];
    await changes.apply(b.db, (tx) => createDashboard(tx, moved, "New"));

    let queries = 0;
    const count = () => queries++;
    a.pool!.on("acquire", count);
    try {
      const reads = userIds.flatMap((userId) => Array.from({ length: 10 }, () => names(a, userId)));
      const answers = await Promise.all(reads);
      for (const [i, userId] of userIds.entries()) {
        const expected = userId === moved ? [userId, "New"].sort() : [userId];
        for (const answer of answers.slice(i * 10, i * 10 + 10)) expect(answer.sort()).toEqual(expected);
      }
    } finally {
      a.pool!.off("acquire", count);
    }
    // One query checked all 30 revisions; only the moved user's 10 reads went on to the database.
    expect(queries).toBe(1 + 10);
  });
});
