import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../../../../test/support/client.js";
import { type ModeEnv, prepareMode } from "../../../../test/support/modes.js";
import type { BuiltApp } from "../../../server/app.js";

/** The bundled icon set (Simple Icons from npm) as the bookmark editor and widget use it. */
describe("bundled icons for bookmarks", () => {
  let mode: ModeEnv;
  let built: BuiltApp;
  // No session: the set is public package data, and public dashboards show chosen icons too.
  let visitor: TestClient;

  beforeAll(async () => {
    mode = await prepareMode("embedded");
    built = await mode.start();
    visitor = new TestClient(built.app);
  });
  afterAll(() => mode.teardown());

  it("answers one icon's title, brand colour and path data, cacheable, without a session", async () => {
    const res = await visitor.get("/api/icons/bundled/jellyfin");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: "si:jellyfin", title: "Jellyfin", hex: "00A4DC" });
    expect(res.body.path).toMatch(/^M[0-9.\s,MmZzLlHhVvCcSsQqTtAae+-]+$/);
    expect(res.headers["cache-control"]).toBe("public, max-age=604800");
  });

  it("has the apps homelab dashboards link to", async () => {
    const slugs = ["jellyfin", "sonarr", "radarr", "proxmox", "homeassistant", "nextcloud", "plex", "pihole"];
    for (const slug of slugs)
      expect((await visitor.get(`/api/icons/bundled/${slug}`)).status, slug).toBe(200);
  });

  it("refuses names outside the set, and never reads a file by a path", async () => {
    expect((await visitor.get("/api/icons/bundled/no_such_icon_here")).status).toBe(404);
    for (const bad of ["..%2Fpackage", "Jellyfin", "jelly%20fin", "a".repeat(41)]) {
      const res = await visitor.get(`/api/icons/bundled/${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.headers["content-type"]).toContain("application/problem+json");
    }
  });

  it("searches by name: exact and prefix matches first", async () => {
    const res = await visitor.get("/api/icons/bundled?q=jelly");
    expect(res.status).toBe(200);
    expect(res.body.icons[0].id).toBe("si:jellyfin");
    expect(res.body.suggested).toBeNull();
    const pi = await visitor.get("/api/icons/bundled?q=Pi-hole");
    expect(pi.body.icons[0].id).toBe("si:pihole");
    expect((await visitor.get("/api/icons/bundled?q=zzzzqqq")).body.icons).toEqual([]);
    expect((await visitor.get("/api/icons/bundled?q=a")).body.icons.length).toBeLessThanOrEqual(30);
  });

  it("suggests the icon a bookmark's host or title names, first, even before typing", async () => {
    const suggest = async (hint: string, q = "") =>
      (await visitor.get(`/api/icons/bundled?q=${encodeURIComponent(q)}&hint=${encodeURIComponent(hint)}`))
        .body;
    expect(await suggest("jellyfin.home.lan:8096 Media")).toMatchObject({
      suggested: "si:jellyfin",
      icons: [{ id: "si:jellyfin" }],
    });
    expect((await suggest("192.168.1.10:8123 Home Assistant")).suggested).toBe("si:homeassistant");
    expect((await suggest("pihole.lan")).suggested).toBe("si:pihole");
    // Typing narrows: the suggestion stays first only while it matches what was typed.
    const typed = await suggest("sonarr.lan:8989", "son");
    expect(typed.icons[0].id).toBe("si:sonarr");
    const other = await suggest("sonarr.lan:8989", "radarr");
    expect(other.suggested).toBeNull();
    expect(other.icons[0].id).toBe("si:radarr");
    // Words that name no app suggest nothing.
    expect((await suggest("nas.home.lan:5000")).suggested).toBeNull();
  });
});
