import { describe, expect, it } from "vitest";
import { defaultBookmarkConfig, faviconUrl, initialOf, moveItem, parseBookmarkConfig } from "./config";

describe("Bookmark config", () => {
  it("reads bookmarks and keeps their ids and order", () => {
    const config = parseBookmarkConfig({
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
    expect(parseBookmarkConfig(null)).toEqual(defaultBookmarkConfig());
    expect(parseBookmarkConfig({ bookmarks: "x" })).toEqual(defaultBookmarkConfig());
    const config = parseBookmarkConfig({
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
});

describe("bookmark helpers", () => {
  it("points the favicon at the site itself", () => {
    expect(faviconUrl("https://example.com/a/b?c")).toBe("https://example.com/favicon.ico");
  });

  it("uses the first letter of the title, else of the host", () => {
    expect(initialOf({ title: "docs", url: "https://x.io" })).toBe("D");
    expect(initialOf({ title: " ", url: "https://www.zeta.io" })).toBe("Z");
  });

  it("moves an item to a new index", () => {
    expect(moveItem(["a", "b", "c"], 0, 2)).toEqual(["b", "c", "a"]);
    expect(moveItem(["a", "b", "c"], 2, 0)).toEqual(["c", "a", "b"]);
    expect(moveItem(["a", "b", "c"], 5, 0)).toEqual(["a", "b", "c"]);
  });
});
