import { describe, expect, it } from "vitest";
import { faviconUrl, initialOf } from "./logic";

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
});
