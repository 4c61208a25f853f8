import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clusterCertificates,
  type ProxmoxFake,
  startProxmoxFake,
} from "../../src/integrations/proxmox/fake.js";
import type { BuiltApp } from "../../src/server/app.js";
import { TestClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";
import { expectProblem } from "../support/problems.js";
import { registerSecret } from "../support/secrets.js";

/**
 * The Proxmox VE integration and widget through the API, as a browser uses them: an admin saves
 * the integration with the cluster's CA certificate (POST /api/integrations), tests it, people put
 * the widget on dashboards and read it with GET /api/widgets/data?id=. Proxmox is the fake on
 * 127.0.0.1, served over https with a certificate its own cluster CA signed, as a fresh install
 * is; it checks the API token header as pveproxy does and records every call.
 */

const GiB = 1024 ** 3;

for (const modeName of MODES) {
  describe(`Proxmox VE (${modeName})`, { timeout: 120_000 }, () => {
    let mode: ModeEnv;
    let built: BuiltApp;
    let pve: ProxmoxFake;
    let ca: string;
    let admin: TestClient;
    let member: TestClient;
    let other: TestClient;
    /** The instance's Proxmox, trusted through its CA certificate. */
    let cluster: string;
    const time = { now: Date.parse("2026-11-28T10:00:00.000Z") };

    beforeAll(async () => {
      const certificates = clusterCertificates();
      ca = certificates.ca;
      pve = await startProxmoxFake({ tls: certificates, now: () => time.now });
      registerSecret(pve.token.secret);
      mode = await prepareMode(modeName);
      built = await mode.start({ rateLimitEnabled: false }, { clock: () => time.now });
      admin = new TestClient(built.app);
      await admin.signUp("Admin");
      member = new TestClient(built.app);
      await member.signUp("Member");
      other = new TestClient(built.app);
      await other.signUp("Other");
      const saved = await admin.post("/api/integrations", {
        kind: "proxmox",
        name: "Homelab",
        url: pve.url,
        owner: "instance",
        allowPrivate: true,
        caCertificate: ca,
        secrets: { tokenId: pve.token.tokenId, secret: pve.token.secret },
      });
      expect(saved.status, saved.text).toBe(201);
      expect(saved.body.secrets).toEqual(["secret", "tokenId"]);
      cluster = saved.body.id;
    });
    afterAll(async () => {
      await mode?.teardown();
      await pve?.close();
    });

    const widget = (client: TestClient, config: object) => client.addWidget("Proxmox", config);
    const data = (client: TestClient, id: string) => client.get(`/api/widgets/data?id=${id}`);
    const probe = (body: Record<string, unknown>) =>
      admin.post("/api/integrations/test", { kind: "proxmox", url: pve.url, allowPrivate: true, ...body });
    const token = (more: Record<string, string> = {}) => ({
      secrets: { tokenId: pve.token.tokenId, secret: pve.token.secret, ...more },
    });
    /** Another token of the fake, saved as an instance integration of its own. */
    async function tokenIntegration(name: string, tokenId: string, secret: string) {
      const res = await admin.post("/api/integrations", {
        kind: "proxmox",
        name,
        url: pve.url,
        owner: "instance",
        allowPrivate: true,
        caCertificate: ca,
        secrets: { tokenId, secret },
      });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    }

    it("tests the connection over https with the cluster's CA certificate, and says what is wrong without it", async () => {
      const untrusted = await probe(token());
      expect(untrusted.body.ok).toBe(false);
      expect(untrusted.body.detail).toMatch(/TLS: .*add (its|that) CA certificate/);

      const trusted = await probe({ ...token(), caCertificate: ca });
      expect(trusted.status, trusted.text).toBe(200);
      expect(trusted.body).toMatchObject({ ok: true, detail: "Proxmox VE 9.1.3: 3 nodes, 5 guests" });
      // The token travels in pveproxy's own header, nowhere else.
      const sent = pve.requests.at(-1)!;
      expect(sent.headers.authorization).toBe(`PVEAPIToken=${pve.token.tokenId}=${pve.token.secret}`);
      expect(sent.path).toBe("/api2/json/cluster/resources?type=vm");

      // Skipping verification is an admin's choice, refused to anyone else.
      expect((await probe({ ...token(), skipTlsVerify: true })).body.ok).toBe(true);
      const byMember = await member.post("/api/integrations/test", {
        kind: "proxmox",
        url: "https://pve.example.com:8006",
        skipTlsVerify: true,
        ...token(),
      });
      expectProblem(byMember, 403, "forbidden");
      expect(trusted.text).not.toContain(pve.token.secret);
    });

    it("names a refused token, a token ID Proxmox cannot have, and a token without permissions", async () => {
      const refusals = pve.refusals;
      const wrong = await probe({
        ...token({ secret: "0b8d5c2e-9f3a-4e71-8c6d-2a1b3c4d5e6f" }),
        caCertificate: ca,
      });
      expect(wrong.body).toMatchObject({ ok: false });
      expect(wrong.body.detail).toContain("Proxmox VE refused the API token (401)");
      expect(pve.refusals).toBe(refusals + 1);

      // Pasted as pveproxy's header, the prefix is dropped; without the `!token` part nothing is sent.
      const pasted = await probe({
        ...token({ tokenId: `PVEAPIToken=${pve.token.tokenId}` }),
        caCertificate: ca,
      });
      expect(pasted.body).toMatchObject({ ok: true });
      const sentBefore = pve.requests.length;
      const malformed = await probe({ ...token({ tokenId: "tessera@pve" }), caCertificate: ca });
      expect(malformed.body).toMatchObject({ ok: false });
      expect(malformed.body.detail).toContain("USER@REALM!TOKENID");
      expect(pve.requests.length).toBe(sentBefore);

      // Privilege separation and no permission of its own: Proxmox answers 200 and nothing.
      pve.tokens.set("tessera@pve!blind", {
        tokenId: "tessera@pve!blind",
        secret: "3f0c6a1e-52b7-4d8e-a9c1-7e6d5b4a3c2f",
        access: "none",
        expire: 0,
      });
      const blind = await probe({
        secrets: { tokenId: "tessera@pve!blind", secret: "3f0c6a1e-52b7-4d8e-a9c1-7e6d5b4a3c2f" },
        caCertificate: ca,
      });
      expect(blind.body).toMatchObject({ ok: false });
      expect(blind.body.detail).toMatch(
        /^Proxmox VE 9\.1\.3 accepted the token, but it may see nothing: .*PVEAuditor/,
      );

      const missing = await admin.post("/api/integrations", {
        kind: "proxmox",
        name: "No secret",
        url: pve.url,
        allowPrivate: true,
        secrets: { tokenId: pve.token.tokenId },
      });
      expectProblem(missing, 400, "validation_failed");
      expect(missing.body.errors).toEqual([
        { path: "/secrets/secret", message: "is required for Proxmox VE" },
      ]);
    });

    it("answers the nodes and guests: figures, states, no templates, no disk use for VMs", async () => {
      const { widgetId } = await widget(member, { integrationId: cluster });
      const res = await data(member, widgetId);
      expect(res.status, res.text).toBe(200);
      const answer = res.body.data;
      expect(answer.version).toBe("9.1.3");
      expect(answer.hint).toBeNull();
      expect(answer.nodes).toEqual([
        {
          name: "pve1",
          status: "online",
          cpu: 0.0612,
          cpus: 16,
          memoryUsed: 21.5 * GiB,
          memoryTotal: 64 * GiB,
          uptimeSeconds: 1_209_600,
        },
        expect.objectContaining({ name: "pve2", status: "online", cpu: 0.347 }),
        // Offline: its size is known, nothing of what it does now.
        {
          name: "pve3",
          status: "offline",
          cpu: null,
          cpus: 4,
          memoryUsed: null,
          memoryTotal: 16 * GiB,
          uptimeSeconds: null,
        },
      ]);
      expect(answer.guests.map((g: { id: string }) => g.id)).toEqual([
        "qemu/100",
        "qemu/101",
        "lxc/200",
        "lxc/201",
        "lxc/300",
      ]);
      expect(answer.guests[0]).toEqual({
        id: "qemu/100",
        vmid: 100,
        name: "haos",
        type: "qemu",
        node: "pve1",
        status: "running",
        cpu: 0.0312,
        cpus: 2,
        memoryUsed: 2.9 * GiB,
        memoryTotal: 4 * GiB,
        // Proxmox answers 0 for a VM's disk use: it cannot see inside; the widget says nothing.
        diskUsed: null,
        diskTotal: 32 * GiB,
        uptimeSeconds: 1_209_000,
      });
      expect(answer.guests[1]).toMatchObject({
        name: "win11",
        status: "stopped",
        cpu: null,
        memoryUsed: null,
      });
      expect(answer.guests[2]).toMatchObject({ name: "pihole", type: "lxc", diskUsed: 1.6 * GiB });
      expect(answer.guests[4]).toEqual({
        id: "lxc/300",
        vmid: 300,
        name: null,
        type: "lxc",
        node: "pve3",
        status: "unknown",
        cpu: null,
        cpus: null,
        memoryUsed: null,
        memoryTotal: null,
        diskUsed: null,
        diskTotal: null,
        uptimeSeconds: null,
      });
      expect(answer.summary).toEqual({ running: 3, stopped: 1, other: 1 });
      expect(answer.guestsTotal).toBe(5);
      // Only what the widget shows: no network counters, tags or fingerprints.
      expect(res.text).not.toMatch(/netin|ssl_fingerprint|tags|debian-13-cloud/);
      expect(res.text).not.toContain(pve.token.secret);
    });

    it("narrows to nodes and kinds of guest, hides stopped ones, and can leave out the nodes", async () => {
      const ask = async (config: object) => {
        const { widgetId } = await widget(member, { integrationId: cluster, ...config });
        const res = await data(member, widgetId);
        expect(res.status, res.text).toBe(200);
        return res.body.data;
      };
      const pve2 = await ask({ nodes: ["pve2"] });
      expect(pve2.nodes.map((n: { name: string }) => n.name)).toEqual(["pve2"]);
      expect(pve2.guests.map((g: { name: string }) => g.name)).toEqual(["jellyfin"]);
      const vms = await ask({ guests: "qemu" });
      expect(vms.guests.map((g: { name: string }) => g.name)).toEqual(["haos", "win11"]);
      expect(vms.summary).toEqual({ running: 1, stopped: 1, other: 0 });
      const running = await ask({ guests: "lxc", hideStopped: true, showNodes: false });
      expect(running.nodes).toEqual([]);
      expect(running.guests.map((g: { vmid: number }) => g.vmid)).toEqual([200, 201, 300]);
      const noStopped = await ask({ guests: "qemu", hideStopped: true });
      expect(noStopped.guests.map((g: { name: string }) => g.name)).toEqual(["haos"]);
      // The counts still say a stopped VM is there, hidden.
      expect(noStopped.summary).toEqual({ running: 1, stopped: 1, other: 0 });
      expect(noStopped.guestsTotal).toBe(1);
      const nodesOnly = await ask({ guests: "none" });
      expect(nodesOnly.guests).toEqual([]);
      expect(nodesOnly.guestsTotal).toBe(0);
      expect(nodesOnly.nodes).toHaveLength(3);
    });

    it("shares one snapshot per integration for fifteen seconds, and lists at most 100 guests", async () => {
      const a = await widget(member, { integrationId: cluster, guests: "lxc" });
      const b = await widget(other, { integrationId: cluster, nodes: ["pve1"] });
      time.now += 60_000;
      const asked = () => pve.count("/api2/json/cluster/resources");
      const before = asked();
      expect((await data(member, a.widgetId)).status).toBe(200);
      expect((await data(other, b.widgetId)).status).toBe(200);
      expect(asked()).toBe(before + 1);

      const seeded = pve.guests.length;
      for (let i = 0; i < 150; i++)
        pve.guests.push({
          id: `lxc/${1000 + i}`,
          vmid: 1000 + i,
          node: "pve2",
          type: "lxc",
          name: `ct-${i}`,
          status: "running",
          template: 0,
          cpu: 0.01,
          maxcpu: 1,
          mem: 1024,
          maxmem: 4096,
          disk: 1,
          maxdisk: 2,
          uptime: 10,
        });
      try {
        time.now += 14_000;
        expect((await data(member, a.widgetId)).body.data.guestsTotal).toBe(3);
        time.now += 2_000;
        const many = (await data(member, a.widgetId)).body.data;
        expect(asked()).toBe(before + 2);
        expect(many.guests).toHaveLength(100);
        expect(many.guestsTotal).toBe(153);
        expect(many.summary.running).toBe(152);
      } finally {
        pve.guests.splice(seeded);
        time.now += 16_000;
      }
    });

    it("says when the token may see nothing: privilege separation without a permission of its own", async () => {
      pve.tokens.set("viewer@pve!blind", {
        tokenId: "viewer@pve!blind",
        secret: "8e2f4a6c-1b3d-4f5a-9c7e-0d2b4f6a8c1e",
        access: "none",
        expire: 0,
      });
      const blind = await tokenIntegration(
        "Blind",
        "viewer@pve!blind",
        "8e2f4a6c-1b3d-4f5a-9c7e-0d2b4f6a8c1e",
      );
      const { widgetId } = await widget(member, { integrationId: blind });
      const res = await data(member, widgetId);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toMatchObject({ hint: "no-permission", guests: [], guestsTotal: 0 });
      expect(res.body.data.nodes[0]).toEqual({
        name: "pve1",
        status: "online",
        cpu: null,
        cpus: null,
        memoryUsed: null,
        memoryTotal: null,
        uptimeSeconds: null,
      });
    });

    it("stops asking with a refused token until it changes or ten minutes pass", async () => {
      pve.tokens.set("old@pve!revoked", {
        tokenId: "old@pve!revoked",
        secret: "5d7f9b1c-3e5a-4c7e-8a0c-2e4a6c8e0a2c",
        access: "auditor",
        expire: 0,
      });
      const revoked = await tokenIntegration(
        "Revoked",
        "old@pve!revoked",
        "00000000-0000-4000-8000-000000000000",
      );
      const { widgetId } = await widget(member, { integrationId: revoked });
      const before = pve.refusals;
      const first = await data(member, widgetId);
      expectProblem(first, 502, "upstream_failed");
      expect(first.body.detail).toContain("Proxmox VE refused the API token of Revoked (401)");
      // The nodes are asked alone first: one refused call, not three.
      expect(pve.refusals).toBe(before + 1);
      for (let i = 0; i < 4; i++) {
        time.now += 60_000;
        expectProblem(await data(member, widgetId), 502, "upstream_failed");
      }
      expect(pve.refusals).toBe(before + 1);
      time.now += 7 * 60_000;
      expectProblem(await data(member, widgetId), 502, "upstream_failed");
      expect(pve.refusals).toBe(before + 2);

      const fixed = await admin.put(`/api/integrations/${revoked}`, {
        secrets: { secret: "5d7f9b1c-3e5a-4c7e-8a0c-2e4a6c8e0a2c" },
      });
      expect(fixed.status, fixed.text).toBe(200);
      const ok = await data(member, widgetId);
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.data.guestsTotal).toBe(5);

      // An expired token is refused the same way, with Proxmox's own reason behind it.
      pve.tokens.get("old@pve!revoked")!.expire = Math.floor(time.now / 1000) - 1;
      time.now += 16_000;
      expectProblem(await data(member, widgetId), 502, "upstream_failed");
      expect(pve.refusals).toBe(before + 3);
    });

    it("says what is wrong with the saved certificate when Proxmox's is not trusted", async () => {
      const res = await admin.post("/api/integrations", {
        kind: "proxmox",
        name: "No CA",
        url: pve.url,
        owner: "instance",
        allowPrivate: true,
        secrets: { tokenId: pve.token.tokenId, secret: pve.token.secret },
      });
      expect(res.status, res.text).toBe(201);
      const { widgetId } = await widget(member, { integrationId: res.body.id });
      const refused = await data(member, widgetId);
      expectProblem(refused, 502, "upstream_failed");
      expect(refused.body.detail).toMatch(/TLS: .*add (its|that) CA certificate/);
    });

    it("refuses configs the parser would silently repair, naming the key", async () => {
      const board = await member.post("/api/dashboards", { name: "Bad Proxmox" });
      const add = (config: object) =>
        member.post("/api/widgets", {
          dashboardId: board.body.id,
          widgetType: "Proxmox",
          height: 200,
          width: 200,
          positionX: 0,
          positionY: 0,
          config,
        });
      const bad = await add({
        integrationId: cluster,
        nodes: ["pve1", "pve 2", 7],
        guests: "vms",
        hideStopped: "yes",
        refreshSeconds: 5,
      });
      expectProblem(bad, 400, "validation_failed");
      expect(bad.body.errors).toEqual([
        { path: "/config/nodes/1", message: expect.stringContaining("node's name") },
        { path: "/config/nodes/2", message: expect.stringContaining("node's name") },
        { path: "/config/guests", message: "must be one of all, qemu, lxc, none" },
        { path: "/config/hideStopped", message: "must be true or false" },
        { path: "/config/refreshSeconds", message: expect.stringContaining("from 10 to 3600") },
      ]);
      const many = await add({ nodes: Array.from({ length: 17 }, (_, i) => `pve${i}`) });
      expectProblem(many, 400, "validation_failed");
      expect(many.body.errors).toEqual([{ path: "/config/nodes", message: "must name at most 16 nodes" }]);
      expectProblem(await member.get("/api/widgets/data?id=not-a-uuid"), 400, "validation_failed");
    });

    it("is 404 for an integration that is gone, another user's, or of another kind", async () => {
      const mine = await admin.post("/api/integrations", {
        kind: "proxmox",
        name: "Admin's own",
        url: pve.url,
        allowPrivate: true,
        caCertificate: ca,
        ...token(),
      });
      expect(mine.status, mine.text).toBe(201);
      const borrowed = await widget(member, { integrationId: mine.body.id });
      const refused = await data(member, borrowed.widgetId);
      expectProblem(refused, 404, "not_found");
      expect(refused.body.detail).toBe("This Proxmox VE integration is gone or not yours");

      const kuma = await admin.post("/api/integrations", {
        kind: "uptimekuma",
        name: "Kuma",
        url: pve.url,
        owner: "instance",
        allowPrivate: true,
      });
      expectProblem(
        await data(member, (await widget(member, { integrationId: kuma.body.id })).widgetId),
        404,
        "not_found",
      );
      expectProblem(await data(member, (await widget(member, {})).widgetId), 404, "not_found");
      const gone = await widget(member, { integrationId: "0192f5a0-0000-7000-8000-000000000000" });
      expectProblem(await data(member, gone.widgetId), 404, "not_found");
      // Another user never reads the widget at all.
      const { widgetId } = await widget(member, { integrationId: cluster });
      expectProblem(await data(other, widgetId), 404, "not_found");
    });

    it("shows the nodes and guests to visitors of a public dashboard, never the token", async () => {
      const { dashboardId, widgetId } = await widget(member, { integrationId: cluster, guests: "lxc" });
      const published = await member.put("/api/dashboards", { id: dashboardId, name: "Lab", isPublic: true });
      expect(published.status, published.text).toBe(200);
      const visitor = new TestClient(built.app);
      const seen = await visitor.get(`/api/public/dashboards/${dashboardId}/widgets/${widgetId}/data`);
      expect(seen.status, seen.text).toBe(200);
      expect(seen.body.data.guests.map((g: { name: string | null }) => g.name)).toEqual([
        "pihole",
        "jellyfin",
        null,
      ]);
      expect(seen.text).not.toContain(pve.token.secret);
      expect(seen.text).not.toContain(pve.token.tokenId);
    });
  });
}
