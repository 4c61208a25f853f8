import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HomeAssistantFake, startHomeAssistantFake } from "../../src/integrations/homeassistant/fake.js";
import type { BuiltApp } from "../../src/server/app.js";
import { TestClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";
import { expectProblem } from "../support/problems.js";
import { registerSecret } from "../support/secrets.js";

/**
 * The Home Assistant widget through the API, as a browser uses it: an admin saves the
 * integration (POST /api/integrations), people put the widget on dashboards, read it with
 * GET /api/widgets/data?id= and toggle a light with POST /api/widgets/action. Home Assistant is
 * the fake on 127.0.0.1, which checks the Bearer token, bans after three refused calls (as HA does
 * with `login_attempts_threshold: 3`), and records every call.
 */

const ENTITIES = [
  { entityId: "light.kitchen", label: "Kitchen light" },
  { entityId: "sensor.living_room_temperature" },
  { entityId: "binary_sensor.front_door" },
  { entityId: "switch.coffee_maker" },
  { entityId: "light.nowhere" },
];

for (const modeName of MODES) {
  describe(`Home Assistant widget (${modeName})`, { timeout: 120_000 }, () => {
    let mode: ModeEnv;
    let built: BuiltApp;
    let ha: HomeAssistantFake;
    let admin: TestClient;
    let member: TestClient;
    let viewer: TestClient;
    let other: TestClient;
    /** The instance's Home Assistant, actions allowed. */
    let lights: string;
    /** The same Home Assistant, actions not allowed. */
    let readOnly: string;
    const time = { now: Date.parse("2026-11-28T10:00:00.000Z") };

    beforeAll(async () => {
      ha = await startHomeAssistantFake({ banAfter: 3, now: () => time.now });
      registerSecret(ha.token);
      mode = await prepareMode(modeName);
      built = await mode.start({ rateLimitEnabled: false }, { clock: () => time.now });
      admin = new TestClient(built.app);
      await admin.signUp("Admin");
      member = new TestClient(built.app);
      await member.signUp("Member");
      viewer = new TestClient(built.app);
      await viewer.signUp("Viewer");
      other = new TestClient(built.app);
      await other.signUp("Other");
      const save = async (name: string, allowActions: boolean) => {
        const res = await admin.post("/api/integrations", {
          kind: "homeassistant",
          name,
          url: ha.url,
          owner: "instance",
          allowPrivate: true,
          allowActions,
          secrets: { token: ha.token },
        });
        expect(res.status, res.text).toBe(201);
        return res.body.id as string;
      };
      lights = await save("Home", true);
      readOnly = await save("Home (read only)", false);
    });
    afterAll(async () => {
      await mode?.teardown();
      await ha?.close();
    });

    const widget = async (client: TestClient, config: object) => client.addWidget("Home Assistant", config);
    const data = (client: TestClient, id: string) => client.get(`/api/widgets/data?id=${id}`);
    const toggle = (client: TestClient, id: string, entityId: unknown) =>
      client.post("/api/widgets/action", { id, action: "toggle", input: { entityId } });

    it("answers each entity's state, name, unit, domain, last change and switch, asking with the Bearer token", async () => {
      const { widgetId } = await widget(member, { integrationId: lights, entities: ENTITIES });
      const before = ha.requests.length;
      const res = await data(member, widgetId);
      expect(res.status, res.text).toBe(200);
      const changed = "2026-11-27T20:01:02.123Z";
      expect(res.body).toEqual({
        data: {
          actions: true,
          entities: [
            {
              entityId: "light.kitchen",
              domain: "light",
              friendlyName: "Kitchen",
              state: "on",
              unit: null,
              deviceClass: null,
              lastChanged: changed,
              togglable: true,
              found: true,
            },
            {
              entityId: "sensor.living_room_temperature",
              domain: "sensor",
              friendlyName: "Living room temperature",
              state: "21.5",
              unit: "°C",
              deviceClass: "temperature",
              lastChanged: changed,
              togglable: false,
              found: true,
            },
            expect.objectContaining({
              entityId: "binary_sensor.front_door",
              state: "off",
              deviceClass: "door",
            }),
            expect.objectContaining({ entityId: "switch.coffee_maker", state: "off", togglable: true }),
            {
              entityId: "light.nowhere",
              domain: "light",
              friendlyName: null,
              state: null,
              unit: null,
              deviceClass: null,
              lastChanged: null,
              togglable: true,
              found: false,
            },
          ],
        },
        fetchedAt: new Date(time.now).toISOString(),
        stale: false,
      });
      // One small call per entity, never the whole house; each with the token.
      const sent = ha.requests.slice(before);
      expect(sent.map((r) => r.path).sort()).toEqual(ENTITIES.map((e) => `/api/states/${e.entityId}`).sort());
      expect(sent.every((r) => r.headers.authorization === `Bearer ${ha.token}`)).toBe(true);
      // Only the attributes the widget shows.
      expect(res.text).not.toContain("brightness");
    });

    it("keeps states for ten seconds, shared by widgets of the same integration", async () => {
      const a = await widget(member, { integrationId: lights, entities: [{ entityId: "person.ada" }] });
      const b = await widget(other, { integrationId: lights, entities: [{ entityId: "person.ada" }] });
      const asked = () => ha.count("/api/states/person.ada");
      expect((await data(member, a.widgetId)).body.data.entities[0].state).toBe("home");
      expect((await data(other, b.widgetId)).body.data.entities[0].state).toBe("home");
      expect(asked()).toBe(1);
      ha.set("person.ada", "not_home");
      time.now += 9_000;
      expect((await data(member, a.widgetId)).body.data.entities[0].state).toBe("home");
      time.now += 2_000;
      expect((await data(member, a.widgetId)).body.data.entities[0].state).toBe("not_home");
      expect(asked()).toBe(2);
    });

    it("lets an editor toggle a light: the service gets the token, the answer and the next read the new state", async () => {
      const { widgetId } = await widget(member, { integrationId: lights, entities: ENTITIES });
      expect((await data(member, widgetId)).body.data.entities[0].state).toBe("on");
      const res = await toggle(member, widgetId, "light.kitchen");
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        detail: "Toggled light.kitchen through Home: off now",
        result: { entityId: "light.kitchen", state: "off", lastChanged: new Date(time.now).toISOString() },
      });
      expect(ha.serviceCalls.at(-1)).toEqual({
        domain: "light",
        service: "toggle",
        body: { entity_id: "light.kitchen" },
        authorization: `Bearer ${ha.token}`,
      });
      // Without waiting for the cache: the toggle forgot the integration's states.
      expect((await data(member, widgetId)).body.data.entities[0].state).toBe("off");

      // A device that reports after the call returned: HA answers [], the state is asked once.
      ha.reportChanges = false;
      try {
        const before = ha.count("/api/states/switch.coffee_maker");
        const later = await toggle(member, widgetId, "switch.coffee_maker");
        expect(later.status, later.text).toBe(200);
        expect(later.body.result).toMatchObject({ entityId: "switch.coffee_maker", state: "on" });
        expect(ha.count("/api/states/switch.coffee_maker")).toBe(before + 1);
      } finally {
        ha.reportChanges = true;
      }
    });

    it("refuses the switch to viewers (403), to others (404), without actions (403) and for other entities (400)", async () => {
      const { dashboardId, widgetId } = await widget(member, { integrationId: lights, entities: ENTITIES });
      const shared = await member.put("/api/dashboards/members", {
        id: dashboardId,
        members: [
          { type: "user", id: viewer.user!.id, role: "viewer" },
          { type: "user", id: admin.user!.id, role: "editor" },
        ],
      });
      expect(shared.status, shared.text).toBe(200);
      const services = ha.serviceCalls.length;

      // A viewer reads the states but may not switch.
      expect((await data(viewer, widgetId)).status).toBe(200);
      expectProblem(await toggle(viewer, widgetId, "light.kitchen"), 403, "forbidden");
      const newestAudit = async () => (await admin.get("/api/admin/audit?limit=1")).body.events[0];
      const refusal = await newestAudit();
      expect(refusal).toMatchObject({
        action: "widget.action",
        target: `widget:${widgetId}`,
        actor: { id: viewer.user!.id },
        detail: { action: "toggle", input: { entityId: "light.kitchen" }, outcome: "refused" },
      });
      // Anyone else does not learn the widget exists, and leaves no trace.
      expectProblem(await data(other, widgetId), 404, "not_found");
      expectProblem(await toggle(other, widgetId, "light.kitchen"), 404, "not_found");
      expect((await newestAudit()).id).toBe(refusal.id);
      // An editor of the shared dashboard may, through the owner's integration.
      const byEditor = await toggle(admin, widgetId, "light.kitchen");
      expect(byEditor.status, byEditor.text).toBe(200);
      expect(ha.serviceCalls.length).toBe(services + 1);

      const notListed = await toggle(member, widgetId, "light.porch");
      expectProblem(notListed, 400, "validation_failed");
      expect(notListed.body.errors).toEqual([
        { path: "/input/entityId", message: "must be one of the widget's entities" },
      ]);
      const sensor = await toggle(member, widgetId, "sensor.living_room_temperature");
      expectProblem(sensor, 400, "validation_failed");
      expect(sensor.body.detail).toBe("sensor.living_room_temperature cannot be switched from a dashboard");
      const garbage = await toggle(member, widgetId, "../../api/services/x");
      expectProblem(garbage, 400, "validation_failed");
      expect(garbage.body.errors[0].path).toBe("/input/entityId");
      expectProblem(
        await member.post("/api/widgets/action", { id: widgetId, action: "explode", input: {} }),
        400,
        "validation_failed",
      );

      const off = await widget(member, { integrationId: readOnly, entities: ENTITIES });
      expect((await data(member, off.widgetId)).body.data.actions).toBe(false);
      const refused = await toggle(member, off.widgetId, "light.kitchen");
      expectProblem(refused, 403, "forbidden");
      expect(refused.body.detail).toBe(
        "Actions through Home (read only) are off: an admin can turn them on in the integration's settings",
      );
      expect(ha.serviceCalls.length).toBe(services + 1);
    });

    it("records every attempt that reached the action in the audit log, with its outcome", async () => {
      const { widgetId } = await widget(member, { integrationId: lights, entities: ENTITIES });
      const off = await widget(member, { integrationId: readOnly, entities: ENTITIES });
      expect((await toggle(member, widgetId, "light.kitchen")).status).toBe(200);
      expect((await toggle(member, widgetId, "light.porch")).status).toBe(400);
      expect((await toggle(member, off.widgetId, "light.kitchen")).status).toBe(403);
      const audit = await admin.get("/api/admin/audit?limit=3");
      expect(audit.status, audit.text).toBe(200);
      expect(audit.body.events).toEqual([
        expect.objectContaining({
          action: "widget.action",
          target: `widget:${off.widgetId}`,
          actor: expect.objectContaining({ name: "Member" }),
          detail: {
            widgetType: "Home Assistant",
            action: "toggle",
            input: { entityId: "light.kitchen" },
            outcome: "failed",
            detail: expect.stringContaining("Actions through Home (read only) are off"),
          },
        }),
        expect.objectContaining({
          target: `widget:${widgetId}`,
          detail: expect.objectContaining({
            input: { entityId: "light.porch" },
            outcome: "failed",
            detail: "light.porch is not one of this widget's entities",
          }),
        }),
        expect.objectContaining({
          target: `widget:${widgetId}`,
          detail: expect.objectContaining({
            input: { entityId: "light.kitchen" },
            outcome: "done",
            detail: expect.stringMatching(/^Toggled light\.kitchen through Home: (on|off) now$/),
          }),
        }),
      ]);
      // The token is never part of it.
      expect(audit.text).not.toContain(ha.token);
    });

    it("stops asking after Home Assistant refuses the token, so it never bans the server", async () => {
      const dead = await admin.post("/api/integrations", {
        kind: "homeassistant",
        name: "Old token",
        url: ha.url,
        owner: "instance",
        allowPrivate: true,
        allowActions: true,
        secrets: { token: "revoked-long-lived-token" },
      });
      expect(dead.status, dead.text).toBe(201);
      const { widgetId } = await widget(member, { integrationId: dead.body.id, entities: ENTITIES });
      const refusedBefore = ha.refusals;
      const first = await data(member, widgetId);
      expectProblem(first, 502, "upstream_failed");
      expect(first.body.detail).toContain("Home Assistant refused the token of Old token (401)");
      // The first entity is asked alone: one refused call, and no other after it.
      expect(ha.refusals - refusedBefore).toBe(1);
      for (let i = 0; i < 5; i++) {
        time.now += 60_000;
        expectProblem(await data(member, widgetId), 502, "upstream_failed");
      }
      const switched = await toggle(member, widgetId, "light.kitchen");
      expectProblem(switched, 502, "upstream_failed");
      expect(ha.refusals - refusedBefore).toBe(1);
      // An hour after the refusal, the token is tried once more (a proxy in front may have answered).
      time.now += 54 * 60_000;
      expectProblem(await data(member, widgetId), 502, "upstream_failed");
      expect(ha.refusals - refusedBefore).toBe(1);
      time.now += 2 * 60_000;
      expectProblem(await data(member, widgetId), 502, "upstream_failed");
      expect(ha.refusals - refusedBefore).toBe(2);

      // A new token is tried at once, and Home Assistant never banned the server.
      const fixed = await admin.put(`/api/integrations/${dead.body.id}`, { secrets: { token: ha.token } });
      expect(fixed.status, fixed.text).toBe(200);
      expect((await data(member, widgetId)).status).toBe(200);
      expect(ha.banned).toBe(false);
    });

    it("refuses configs the parser would silently repair, naming the key", async () => {
      const board = await member.post("/api/dashboards", { name: "Bad entities" });
      const bad = await member.post("/api/widgets", {
        dashboardId: board.body.id,
        widgetType: "Home Assistant",
        height: 200,
        width: 200,
        positionX: 0,
        positionY: 0,
        config: {
          integrationId: lights,
          entities: [{ entityId: "Light.Kitchen " }, { entityId: "kitchen light" }],
          refreshSeconds: 2,
        },
      });
      expectProblem(bad, 400, "validation_failed");
      expect(bad.body.errors).toEqual([
        { path: "/config/entities/1/entityId", message: expect.stringContaining("entity id") },
        { path: "/config/refreshSeconds", message: expect.stringContaining("from 10 to 3600") },
      ]);
      const tooMany = await member.post("/api/widgets", {
        dashboardId: board.body.id,
        widgetType: "Home Assistant",
        height: 200,
        width: 200,
        positionX: 0,
        positionY: 0,
        config: { entities: Array.from({ length: 31 }, (_, i) => ({ entityId: `light.l${i}` })) },
      });
      expectProblem(tooMany, 400, "validation_failed");
      expect(tooMany.body.errors[0]).toEqual({
        path: "/config/entities",
        message: "must hold at most 30 entities",
      });
    });

    it("is 404 for an integration that is gone, another user's, or of another kind", async () => {
      const personal = await member.post("/api/integrations", {
        kind: "homeassistant",
        name: "Mine",
        url: ha.url.replace("127.0.0.1", "localhost"),
        secrets: { token: ha.token },
      });
      // A member may not reach loopback: only an admin's integration may (allowPrivate).
      expectProblem(personal, 400, "address_not_allowed");
      const theirs = await admin.post("/api/integrations", {
        kind: "homeassistant",
        name: "Admin's own",
        url: ha.url,
        allowPrivate: true,
        secrets: { token: ha.token },
      });
      expect(theirs.status, theirs.text).toBe(201);
      const borrowed = await widget(member, { integrationId: theirs.body.id, entities: ENTITIES });
      const refused = await data(member, borrowed.widgetId);
      expectProblem(refused, 404, "not_found");
      expect(refused.body.detail).toBe("This Home Assistant integration is gone or not yours");
      expectProblem(await toggle(member, borrowed.widgetId, "light.kitchen"), 404, "not_found");

      const kuma = await admin.post("/api/integrations", {
        kind: "uptimekuma",
        name: "Kuma",
        url: ha.url,
        owner: "instance",
        allowPrivate: true,
      });
      const wrongKind = await widget(member, { integrationId: kuma.body.id, entities: ENTITIES });
      expectProblem(await data(member, wrongKind.widgetId), 404, "not_found");
      // Without an integration or entities the widget asks for nothing yet.
      const empty = await widget(member, { entities: ENTITIES });
      expectProblem(await data(member, empty.widgetId), 404, "not_found");
    });

    it("lists the integration's entities for the settings to pick from, to those who may use it", async () => {
      const res = await member.get(`/api/home-assistant/entities?integrationId=${lights}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.map((e: { entityId: string }) => e.entityId)).toEqual([...ha.states.keys()].sort());
      expect(res.body).toContainEqual({
        entityId: "sensor.living_room_temperature",
        name: "Living room temperature",
        domain: "sensor",
        state: "21.5",
        unit: "°C",
      });
      expect(ha.requests.at(-1)!.path).toBe("/api/states");
      const mine = await admin.post("/api/integrations", {
        kind: "homeassistant",
        name: "Private",
        url: ha.url,
        allowPrivate: true,
        secrets: { token: ha.token },
      });
      expectProblem(
        await member.get(`/api/home-assistant/entities?integrationId=${mine.body.id}`),
        404,
        "not_found",
      );
      expectProblem(
        await new TestClient(built.app).get(`/api/home-assistant/entities?integrationId=${lights}`),
        401,
        "unauthenticated",
      );
    });

    it("shows the states to visitors of a public dashboard, and never lets them switch", async () => {
      const { dashboardId, widgetId } = await widget(member, { integrationId: lights, entities: ENTITIES });
      const published = await member.put("/api/dashboards", {
        id: dashboardId,
        name: "Home",
        isPublic: true,
      });
      expect(published.status, published.text).toBe(200);
      const visitor = new TestClient(built.app);
      const seen = await visitor.get(`/api/public/dashboards/${dashboardId}/widgets/${widgetId}/data`);
      expect(seen.status, seen.text).toBe(200);
      expect(seen.body.data.entities).toHaveLength(ENTITIES.length);
      expect(seen.text).not.toContain(ha.token);
      expectProblem(await toggle(visitor, widgetId, "light.kitchen"), 401, "unauthenticated");
    });
  });
}
