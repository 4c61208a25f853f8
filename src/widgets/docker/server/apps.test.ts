import { describe, expect, it } from "vitest";
import { appOf, iconSlugOf } from "./apps.js";

describe("apps from container labels", () => {
  it("reads Tessera's labels first and Homepage's where those are missing", () => {
    expect(
      appOf({
        "tessera.name": "Films",
        "homepage.name": "Jellyfin",
        "homepage.href": "http://jellyfin.lan:8096",
        "homepage.group": "Media",
      }),
    ).toEqual({
      name: "Films",
      url: "http://jellyfin.lan:8096/",
      icon: null,
      group: "Media",
      description: null,
    });
  });

  it("names no app without a name or an http(s) link; a bare link is named by its host", () => {
    expect(appOf({ "com.docker.compose.project": "media" })).toBeNull();
    expect(appOf({ "tessera.url": "javascript:alert(1)" })).toBeNull();
    expect(appOf({ "tessera.url": "https://nas.lan:5001/" })?.name).toBe("nas.lan:5001");
    expect(appOf(null)).toBeNull();
  });

  it("reads icon names as people write them for Tessera and Homepage", () => {
    expect(iconSlugOf("si:jellyfin")).toBe("jellyfin");
    expect(iconSlugOf("si-home-assistant")).toBe("homeassistant");
    expect(iconSlugOf("paperless-ngx.png")).toBe("paperlessngx");
    expect(iconSlugOf("Jellyfin")).toBe("jellyfin");
    expect(iconSlugOf("mdi-server")).toBeNull();
    expect(iconSlugOf("https://example.com/icon.png")).toBeNull();
  });
});
