import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { TestClient } from "../support/client.js";
import { MODES, type ModeEnv, type ModeName, prepareMode } from "../support/modes.js";
import { expectProblem } from "../support/problems.js";

/**
 * The audit log (DESIGN section 17): sign-ins and failures, role changes, groups, sharing, imports
 * and restores, each with who did it, newest first, for admins only.
 */
describe.each<ModeName>(MODES)("audit log (%s)", { timeout: 120_000 }, (modeName) => {
  let mode: ModeEnv;
  let app: BuiltApp;
  let admin: TestClient;
  let member: TestClient;
  let memberAccount: { id: string; email: string; password: string };

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    app = await mode.start({ rateLimitEnabled: false });
    admin = new TestClient(app.app);
    await admin.signUp("Admin");
    member = new TestClient(app.app);
    memberAccount = await member.signUp("Member");
  });
  afterAll(() => mode.teardown());

  /** The newest events, as [action, target] pairs. */
  const newest = async (limit: number) => {
    const res = await admin.get(`/api/admin/audit?limit=${limit}`);
    expect(res.status, res.text).toBe(200);
    return res.body.events as {
      action: string;
      target: string;
      actor: { id: string | null; name: string };
      detail: Record<string, unknown>;
    }[];
  };

  it("records sign-ins and failed ones, naming the address tried", async () => {
    const wrong = await new TestClient(app.app).post("/api/auth/sign-in/email", {
      email: memberAccount.email,
      password: "not-the-password",
    });
    expect(wrong.status).toBe(401);
    const right = await new TestClient(app.app).post("/api/auth/sign-in/email", {
      email: memberAccount.email,
      password: memberAccount.password,
    });
    expect(right.status, right.text).toBe(200);
    const [signedIn, failed] = await newest(2);
    expect(signedIn).toMatchObject({
      action: "auth.signed_in",
      target: `user:${memberAccount.id}`,
      actor: { id: memberAccount.id, name: "Member" },
    });
    expect(failed).toMatchObject({
      action: "auth.sign_in_failed",
      target: `email:${memberAccount.email}`,
      actor: { id: null },
      detail: { email: memberAccount.email },
    });
    expect(JSON.stringify(failed)).not.toContain("not-the-password");
  });

  it("records role changes, groups, sharing, imports and restores with who did them", async () => {
    expect((await admin.put("/api/admin/users", { id: memberAccount.id, role: "admin" })).status).toBe(200);
    expect((await admin.put("/api/admin/users", { id: memberAccount.id, role: "member" })).status).toBe(200);
    const group = await admin.post("/api/admin/groups", { name: "Family", members: [memberAccount.id] });
    expect(group.status, group.text).toBe(201);
    const board = (await admin.post("/api/dashboards", { name: "Kitchen" })).body;
    const shared = await admin.put("/api/dashboards/members", {
      id: board.id,
      members: [{ type: "group", id: group.body.id, role: "viewer" }],
    });
    expect(shared.status, shared.text).toBe(200);
    const imported = await member.post("/api/dashboards/import", {
      format: "tessera.dashboard",
      version: 1,
      exportedAt: new Date().toISOString(),
      dashboard: { name: "From a file" },
      widgets: [{ widgetType: "Clock", height: 200, width: 300, positionX: 0, positionY: 0, config: {} }],
    });
    expect(imported.status, imported.text).toBe(201);
    const dashboardId = imported.body.dashboard.id as string;
    const versions = await member.get(`/api/dashboards/versions?id=${dashboardId}`);
    const restored = await member.post("/api/dashboards/restore", {
      id: dashboardId,
      versionId: versions.body.at(-1).id,
    });
    expect(restored.status, restored.text).toBe(200);

    const events = await newest(6);
    expect(events.map((e) => [e.action, e.actor.name])).toEqual([
      ["dashboard.restored", "Member"],
      ["dashboard.imported", "Member"],
      ["dashboard.shared", "Admin"],
      ["group.created", "Admin"],
      ["user.changed", "Admin"],
      ["user.changed", "Admin"],
    ]);
    expect(events[2]!.detail).toMatchObject({
      name: "Kitchen",
      members: [{ type: "group", id: group.body.id, role: "viewer" }],
    });
    expect(events[5]!.detail).toMatchObject({ role: "admin" });
    expectProblem(await member.get("/api/admin/audit"), 403, "forbidden");
  });
});
