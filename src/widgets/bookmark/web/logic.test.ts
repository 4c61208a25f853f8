import { describe, expect, it } from "vitest";
import { contrast, faviconUrl, glyphColour, iconHint, initialOf } from "./logic";

describe("bookmark helpers", () => {
  it("asks our server for the site's icon, never the site", () => {
    expect(faviconUrl("https://example.com/a/b?c")).toBe(
      `/api/icons/site?url=${encodeURIComponent("https://example.com")}`,
    );
    expect(faviconUrl("http://nas.lan:8080/x")).toBe(
      `/api/icons/site?url=${encodeURIComponent("http://nas.lan:8080")}`,
    );
    expect(faviconUrl("ftp://example.com/")).toBeNull();
  });

  it("uses the first letter of the title, else of the host", () => {
    expect(initialOf({ title: "docs", url: "https://x.io" })).toBe("D");
    expect(initialOf({ title: " ", url: "https://www.zeta.io" })).toBe("Z");
  });

  it("draws a brand icon's glyph legibly on its brand colour, whatever the colour", () => {
    // Jellyfin's blue, Pi-hole's dark red, a black and a white logo, Plex's yellow.
    for (const hex of ["00A4DC", "96060C", "000000", "FFFFFF", "EBAF00", "181717"]) {
      const glyph = glyphColour(hex).slice(1);
      expect(contrast(hex, glyph), hex).toBeGreaterThanOrEqual(4.5);
    }
    expect(glyphColour("000000")).toBe("#ffffff");
    expect(glyphColour("FFFFFF")).toBe("#111111");
  });

  it("hints the icon search with the bookmark's host and title", () => {
    expect(iconHint({ title: "Media", url: "http://jellyfin.home.lan:8096/" })).toBe(
      "jellyfin.home.lan:8096 Media",
    );
    expect(iconHint({ title: "", url: "" })).toBe("");
  });
});
