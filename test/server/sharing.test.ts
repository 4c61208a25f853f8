import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { signedInClient, TestClient, uniqueEmail } from "../support/client.js";
import { MODES, type ModeEnv, type ModeName, prepareMode } from "../support/modes.js";
import { expectProblem } from "../support/problems.js";

/**
 * Sharing dashboards with people, groups and everyone (DESIGN section 14): what each access may
 * do, that every refusal is the right 4xx and changes nothing, and that losing access is at once.
 */

const geometry = { height: 200, width: 300, positionX: 0, positionY: 40 };

describe.each<ModeName>(MODES)("sharing (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  /** The first account: the admin. */
  let admin: TestClient;
  let anna: TestClient;
  let ben: TestClient;
  let cleo: TestClient;

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start();
    admin = await signedInClient(built.app, "Root");
    anna = await signedInClient(built.app, "Anna");
    ben = await signedInClient(built.app, "Ben");
    cleo = await signedInClient(built.app, "Cleo");
  });
  afterAll(() => mode.teardown());

  const idOf = (client: TestClient) => client.user!.id;

  /** Anna's board with a Todo, shared with `members`. */
  async function board(members: unknown[] = [], name = "Home") {
    const dashboard = (await anna.post("/api/dashboards", { name })).body;
    const widget = (
      await anna.post("/api/widgets", {
        dashboardId: dashboard.id,
        widgetType: "Todo",
        ...geometry,
        config: { todos: [] },
      })
    ).body;
    const shared = await anna.put("/api/dashboards/members", { id: dashboard.id, members });
    expect(shared.status, shared.text).toBe(200);
    return { dashboard, widget };
  }

  it("shares by id and by email, and lists the members with names and roles", async () => {
    const { dashboard } = await board([
      { type: "user", id: idOf(ben), role: "viewer" },
      { type: "user", email: cleo.user!.email.toUpperCase(), role: "editor" },
    ]);
    const members = await anna.get(`/api/dashboards/members?id=${dashboard.id}`);
    expect(members.body).toEqual([
      { type: "user", id: idOf(ben), name: "Ben", role: "viewer" },
      { type: "user", id: idOf(cleo), name: "Cleo", role: "editor" },
    ]);
    // Members may see whom it is shared with; anyone else learns nothing.
    expect((await ben.get(`/api/dashboards/members?id=${dashboard.id}`)).body).toEqual(members.body);
    expectProblem(await admin.get(`/api/dashboards/members?id=${crypto.randomUUID()}`), 404, "not_found");
  });

  it("answers access everywhere, lists shared boards after the caller's own with their owner", async () => {
    const { dashboard, widget } = await board([{ type: "user", id: idOf(ben), role: "viewer" }], "Shared");
    const own = (await ben.post("/api/dashboards", { name: "Ben's" })).body;
    expect(own.access).toBe("owner");
    expect(own).not.toHaveProperty("owner");

    const plain = (await ben.get("/api/dashboards")).body as any[];
    expect(plain.map((d) => d.id)).toContain(own.id);
    expect(plain.map((d) => d.id)).not.toContain(dashboard.id);

    const all = (await ben.get("/api/dashboards?include=shared")).body as any[];
    const at = all.findIndex((d) => d.id === dashboard.id);
    expect(at).toBeGreaterThan(all.findIndex((d) => d.id === own.id));
    expect(all[at]).toMatchObject({
      id: dashboard.id,
      userId: idOf(anna),
      access: "viewer",
      owner: { id: idOf(anna), name: "Anna" },
    });
    expect((await ben.get(`/api/dashboards?id=${dashboard.id}`)).body).toEqual([all[at]]);
    expect((await anna.get(`/api/dashboards?id=${dashboard.id}`)).body[0].access).toBe("owner");
    expectProblem(await ben.get("/api/dashboards?include=shared&limit=5"), 400, "validation_failed");

    // Widgets of a readable board; the caller's own list stays their own (spec).
    expect((await ben.get(`/api/widgets?dashboardId=${dashboard.id}`)).body).toEqual([widget]);
    expect(((await ben.get("/api/widgets")).body as any[]).map((w) => w.id)).not.toContain(widget.id);

    const first = (await ben.get(`/api/bootstrap?dashboardId=${dashboard.id}`)).body;
    expect(first.dashboardId).toBe(dashboard.id);
    expect(first.widgets).toEqual([widget]);
    expect(first.dashboards.map((d: any) => d.id)).toEqual(all.map((d) => d.id));
    // A shared board may be the one the app reopens.
    const remembered = await ben.put("/api/settings", {
      id: first.settings.id,
      lastDashboardId: dashboard.id,
    });
    expect(remembered.status, remembered.text).toBe(200);
  });

  it("lets a viewer read, export and duplicate, and refuses every write with 403", async () => {
    const { dashboard, widget } = await board([{ type: "user", id: idOf(ben), role: "viewer" }]);
    const before = await anna.snapshot();

    expect((await ben.get(`/api/dashboards/export?id=${dashboard.id}`)).status).toBe(200);
    const copy = await ben.post("/api/dashboards/duplicate", { id: dashboard.id });
    expect(copy.status, copy.text).toBe(201);
    expect(copy.body.dashboard).toMatchObject({ userId: idOf(ben), access: "owner" });
    expect(copy.body.widgets[0]).toMatchObject({ userId: idOf(ben), widgetType: "Todo" });
    expect((await ben.get(`/api/dashboards/versions?id=${dashboard.id}`)).status).toBe(200);

    const writes = [
      ben.post("/api/widgets", { dashboardId: dashboard.id, widgetType: "Clock", ...geometry }),
      ben.put("/api/widgets", { id: widget.id, positionX: 99 }),
      ben.request({
        method: "PATCH",
        url: "/api/widgets",
        json: { id: widget.id, ops: [{ op: "add", path: "/config/todos/-", value: { text: "x" } }] },
      }),
      ben.delete(`/api/widgets?id=${widget.id}`),
      ben.put("/api/dashboards", { id: dashboard.id, name: "Mine now" }),
      ben.put("/api/dashboards", { id: dashboard.id, name: "Home", isPublic: true }),
      ben.delete(`/api/dashboards?id=${dashboard.id}`),
      ben.put("/api/dashboards/members", { id: dashboard.id, members: [] }),
    ];
    for (const res of await Promise.all(writes)) expectProblem(res, 403, "forbidden");
    const versions = (await anna.get(`/api/dashboards/versions?id=${dashboard.id}`)).body;
    expectProblem(
      await ben.post("/api/dashboards/restore", { id: dashboard.id, versionId: versions[0].id }),
      403,
      "forbidden",
    );
    expect(await anna.snapshot()).toEqual(before);
  });

  it("lets an editor change widgets, rename and restore, on the owner's account; not share or delete", async () => {
    const { dashboard, widget } = await board([{ type: "user", id: idOf(ben), role: "editor" }]);
    const added = await ben.post("/api/widgets", {
      dashboardId: dashboard.id,
      widgetType: "Clock",
      ...geometry,
    });
    expect(added.status, added.text).toBe(201);
    // Quotas count against the owner: the widget is hers, whoever added it.
    expect(added.body.userId).toBe(idOf(anna));
    expect((await ben.put("/api/widgets", { id: widget.id, positionX: 50 })).body.positionX).toBe(50);
    const renamed = await ben.put("/api/dashboards", {
      id: dashboard.id,
      name: "Our home",
      look: { accent: "#336699" },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Our home", access: "editor", owner: { id: idOf(anna) } });
    expect((await ben.delete(`/api/widgets?id=${added.body.id}`)).status).toBe(200);

    const versions = (await ben.get(`/api/dashboards/versions?id=${dashboard.id}`)).body as any[];
    expect(versions[0].by).toEqual({ id: idOf(ben), name: "Ben" });
    expect(versions.some((v) => v.by?.id === idOf(anna))).toBe(true);
    const restored = await ben.post("/api/dashboards/restore", {
      id: dashboard.id,
      versionId: versions.at(-1).id,
    });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.dashboard.access).toBe("editor");

    for (const res of await Promise.all([
      ben.put("/api/dashboards", { id: dashboard.id, name: "Our home", isPublic: true }),
      ben.delete(`/api/dashboards?id=${dashboard.id}`),
      ben.put("/api/dashboards/members", { id: dashboard.id, members: [] }),
    ]))
      expectProblem(res, 403, "forbidden");
    expect((await anna.get(`/api/dashboards?id=${dashboard.id}`)).body[0].isPublic).toBe(false);
  });

  it("answers 404 to anyone without access, for reads and writes alike", async () => {
    const { dashboard, widget } = await board([{ type: "user", id: idOf(ben), role: "editor" }]);
    for (const res of await Promise.all([
      cleo.get(`/api/dashboards?id=${dashboard.id}`),
      cleo.get(`/api/widgets?dashboardId=${dashboard.id}`),
      cleo.get(`/api/dashboards/members?id=${dashboard.id}`),
      cleo.put("/api/widgets", { id: widget.id, positionX: 1 }),
      cleo.put("/api/dashboards/members", { id: dashboard.id, members: [] }),
      cleo.delete(`/api/dashboards?id=${dashboard.id}`),
      cleo.post("/api/dashboards/duplicate", { id: dashboard.id }),
    ]))
      expectProblem(res, 404, "not_found");
  });

  it("lets an admin manage any dashboard (read, share, publish, delete) but edit only as a member", async () => {
    const { dashboard, widget } = await board([]);
    expect((await admin.get(`/api/dashboards?id=${dashboard.id}`)).body[0].access).toBe("viewer");
    expectProblem(await admin.put("/api/widgets", { id: widget.id, positionX: 1 }), 403, "forbidden");
    const shared = await admin.put("/api/dashboards/members", {
      id: dashboard.id,
      members: [{ type: "user", id: idOf(cleo), role: "viewer" }],
    });
    expect(shared.status, shared.text).toBe(200);
    const published = await admin.put("/api/dashboards", { id: dashboard.id, name: "Home", isPublic: true });
    expect(published.body.isPublic).toBe(true);
    expect((await admin.delete(`/api/dashboards?id=${dashboard.id}`)).status).toBe(200);
    expectProblem(await cleo.get(`/api/dashboards?id=${dashboard.id}`), 404, "not_found");
  });

  it("shares with groups that admins manage; leaving the group ends the access at once", async () => {
    expectProblem(await anna.get("/api/admin/groups"), 403, "forbidden");
    expectProblem(await anna.post("/api/admin/groups", { name: "Family" }), 403, "forbidden");
    const group = await admin.post("/api/admin/groups", { name: "Family", members: [idOf(ben), idOf(cleo)] });
    expect(group.status, group.text).toBe(201);
    expect(group.body).toMatchObject({ name: "Family", members: [idOf(ben), idOf(cleo)].sort() });
    expect((await admin.get("/api/admin/groups")).body).toContainEqual(group.body);

    const { dashboard } = await board([{ type: "group", id: group.body.id, role: "viewer" }]);
    expect((await anna.get(`/api/dashboards/members?id=${dashboard.id}`)).body).toEqual([
      { type: "group", id: group.body.id, name: "Family", role: "viewer" },
    ]);
    expect((await cleo.get(`/api/dashboards?id=${dashboard.id}`)).body[0].access).toBe("viewer");

    const renamed = await admin.put("/api/admin/groups", {
      id: group.body.id,
      name: "Kin",
      members: [idOf(ben)],
    });
    expect(renamed.body).toEqual({ id: group.body.id, name: "Kin", members: [idOf(ben)] });
    expectProblem(await cleo.get(`/api/dashboards?id=${dashboard.id}`), 404, "not_found");
    expect((await ben.get(`/api/dashboards?id=${dashboard.id}`)).status).toBe(200);

    expectProblem(
      await admin.post("/api/admin/groups", { name: "Ghosts", members: ["no-such-user"] }),
      400,
      "validation_failed",
    );
    expect(((await admin.get("/api/admin/groups")).body as any[]).map((g) => g.name)).not.toContain("Ghosts");
    expectProblem(
      await admin.put("/api/admin/groups", { id: crypto.randomUUID(), name: "X" }),
      404,
      "not_found",
    );

    expect((await admin.delete(`/api/admin/groups?id=${group.body.id}`)).status).toBe(200);
    expectProblem(await ben.get(`/api/dashboards?id=${dashboard.id}`), 404, "not_found");
    expect((await anna.get(`/api/dashboards/members?id=${dashboard.id}`)).body).toEqual([]);
  });

  it("shares with everyone: every user reads it, including people who join later", async () => {
    const { dashboard } = await board([{ type: "everyone", role: "viewer" }], "Starter");
    const later = await signedInClient(built.app, "Dora");
    const listed = ((await later.get("/api/dashboards?include=shared")).body as any[]).find(
      (d) => d.id === dashboard.id,
    );
    expect(listed).toMatchObject({ access: "viewer", owner: { name: "Anna" } });
    expect((await anna.get(`/api/dashboards/members?id=${dashboard.id}`)).body).toEqual([
      { type: "everyone", id: null, name: "", role: "viewer" },
    ]);
    // The better role wins when two memberships reach one person.
    await anna.put("/api/dashboards/members", {
      id: dashboard.id,
      members: [
        { type: "everyone", role: "viewer" },
        { type: "user", id: idOf(later), role: "editor" },
      ],
    });
    expect((await later.get(`/api/dashboards?id=${dashboard.id}`)).body[0].access).toBe("editor");
  });

  it("refuses bad members with each one's path, and changes nothing", async () => {
    const { dashboard } = await board([{ type: "user", id: idOf(ben), role: "viewer" }]);
    const before = (await anna.get(`/api/dashboards/members?id=${dashboard.id}`)).body;
    const refused = await anna.put("/api/dashboards/members", {
      id: dashboard.id,
      members: [
        { type: "user", id: idOf(cleo), role: "editor" },
        { type: "user", id: "nobody-here", role: "viewer" },
        { type: "user", email: uniqueEmail("stranger"), role: "viewer" },
        { type: "group", id: crypto.randomUUID(), role: "viewer" },
        { type: "user", id: idOf(anna), role: "editor" },
        { type: "user", id: idOf(cleo), role: "viewer" },
      ],
    });
    expectProblem(refused, 400, "validation_failed");
    expect(refused.body.errors.map((e: any) => e.path)).toEqual([
      "/members/1",
      "/members/2",
      "/members/3",
      "/members/4",
      "/members/5",
    ]);
    for (const body of [
      { id: dashboard.id, members: [{ type: "user", id: idOf(cleo), role: "owner" }] },
      { id: dashboard.id, members: [{ type: "robot", id: idOf(cleo), role: "viewer" }] },
      { id: dashboard.id, members: [{ type: "group", id: "not-a-uuid", role: "viewer" }] },
      { id: dashboard.id, members: "everyone" },
      { id: "nope", members: [] },
    ])
      expectProblem(await anna.put("/api/dashboards/members", body), 400, "validation_failed");
    const invalid = await anna.request({
      method: "PUT",
      url: "/api/dashboards/members",
      payload: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(invalid.status).toBe(400);
    expect((await anna.get(`/api/dashboards/members?id=${dashboard.id}`)).body).toEqual(before);
  });
});

describe("the directory", () => {
  const modes: ModeEnv[] = [];
  afterAll(async () => {
    for (const mode of modes) await mode.teardown();
  });

  it("lists every user and group on a closed instance, only the caller's groups on an open one", async () => {
    // PostgreSQL: two instances start faster there than two fresh embedded databases.
    const mode = await prepareMode("postgres");
    const other = await prepareMode("postgres");
    modes.push(mode, other);
    const open = await mode.start();
    const root = await signedInClient(open.app, "Root");
    const ann = await signedInClient(open.app, "Ann");
    await root.post("/api/admin/groups", { name: "Ann's", members: [ann.user!.id] });
    await root.post("/api/admin/groups", { name: "Others", members: [] });
    expect((await ann.get("/api/directory")).body).toEqual({
      users: [],
      groups: [{ id: expect.any(String), name: "Ann's" }],
    });

    const invite = await other.start({ access: { ...other.config().access, signupMode: "invite" } });
    const first = await signedInClient(invite.app, "Root");
    const token = (await first.post("/api/admin/invites", {})).body.token as string;
    const second = new TestClient(invite.app);
    expect((await second.trySignUp("Bo", undefined, { inviteToken: token })).status).toBe(200);
    await first.post("/api/admin/groups", { name: "Team", members: [second.user!.id] });
    const directory = (await second.get("/api/directory")).body;
    expect(directory.users.map((u: any) => u.name)).toEqual(["Bo", "Root"]);
    expect(directory.users[0]).toEqual({ id: second.user!.id, name: "Bo", image: null });
    expect(directory.groups.map((g: any) => g.name)).toEqual(["Team"]);
  });
});
