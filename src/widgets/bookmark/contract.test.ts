import { describe, expect, it } from "vitest";
import { bookmarkWidget } from "./contract.js";

const parse = bookmarkWidget.parse;

describe("Bookmark config", () => {
  it("reads bookmarks and keeps their ids and order", () => {
    const config = parse({
      bookmarks: [
        { id: "1", title: "Docs", url: "https://example.com/docs" },
        { id: "2", title: "Local", url: "http://localhost:8080" },
      ],
    });
    expect(config.bookmarks).toEqual([
      { id: "1", title: "Docs", url: "https://example.com/docs" },
      { id: "2", title: "Local", url: "http://localhost:8080/" },
    ]);
  });

  it("falls back to defaults for missing or malformed values", () => {
    expect(parse(null)).toEqual(bookmarkWidget.defaults());
    expect(parse({ bookmarks: "x" })).toEqual({ bookmarks: [] });
    const config = parse({
      bookmarks: [
        null,
        "https://example.com",
        { title: "Evil", url: "javascript:alert(1)" },
        { title: "Data", url: "data:text/html,hi" },
        { id: 7, url: "https://www.github.com/x" },
        { id: "dup", title: "A", url: "https://a.example" },
        { id: "dup", title: "B", link: "https://b.example" },
      ],
    });
    expect(config.bookmarks.map((b) => b.title)).toEqual(["github.com", "A", "B"]);
    expect(new Set(config.bookmarks.map((b) => b.id)).size).toBe(3);
    expect(config.bookmarks[0]?.id).toBe("bookmark-4");
  });

  it("reads the legacy `link` key as the URL", () => {
    expect(parse({ bookmarks: [{ id: "a", title: "Old", link: "https://old.example" }] })).toEqual({
      bookmarks: [{ id: "a", title: "Old", url: "https://old.example/" }],
    });
  });

  it("accepts host:port and bare IP addresses, with http, and names them with their port", () => {
    const config = parse({
      bookmarks: [
        { id: "j", url: "jellyfin.home.lan:8096" },
        { id: "s", url: "192.168.1.10:8989" },
        { id: "n", url: "nas:5000/admin" },
        { id: "e", url: "example.com" },
        { id: "t", url: "typo" },
        { id: "v6", url: "[fd00::1]:8080" },
      ],
    });
    expect(config.bookmarks).toEqual([
      { id: "j", url: "http://jellyfin.home.lan:8096/", title: "jellyfin.home.lan:8096" },
      { id: "s", url: "http://192.168.1.10:8989/", title: "192.168.1.10:8989" },
      { id: "n", url: "http://nas:5000/admin", title: "nas:5000" },
      { id: "e", url: "https://example.com/", title: "example.com" },
      { id: "v6", url: "http://[fd00::1]:8080/", title: "[fd00::1]:8080" },
    ]);
  });
});

describe("Bookmark icons", () => {
  const one = (icon: unknown) =>
    parse({ bookmarks: [{ id: "j", title: "Jellyfin", url: "https://jf.example", icon }] }).bookmarks[0];

  it("keeps a bundled icon's name, normalised", () => {
    expect(one("si:jellyfin")).toEqual({
      id: "j",
      title: "Jellyfin",
      url: "https://jf.example/",
      icon: "si:jellyfin",
    });
    expect(one("  SI:HomeAssistant ")?.icon).toBe("si:homeassistant");
    expect(one("si:graphite_editor")?.icon).toBe("si:graphite_editor");
  });

  it("drops an unusable icon but keeps the bookmark (then the favicon shows)", () => {
    for (const bad of [
      "jellyfin",
      "si:",
      "si:jelly fin",
      "si:../../etc/passwd",
      "xx:jellyfin",
      `si:${"a".repeat(41)}`,
      "https://evil.example/icon.svg",
      42,
      null,
      { id: "si:jellyfin" },
    ]) {
      const bookmark = one(bad);
      expect(bookmark, JSON.stringify(bad)).toBeDefined();
      expect(bookmark, JSON.stringify(bad)).not.toHaveProperty("icon");
    }
  });

  it("has no icon when none was chosen", () => {
    expect(one(undefined)).not.toHaveProperty("icon");
  });
});
