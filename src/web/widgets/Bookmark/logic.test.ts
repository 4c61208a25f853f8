import { describe, expect, it } from "vitest";
import { faviconUrl, initialOf } from "./logic";

describe("bookmark helpers", () => {
  it("points the favicon at the site itself", () => {
    expect(faviconUrl("https://example.com/a/b?c")).toBe("https://example.com/favicon.ico");
    // Images load over https only (the app's CSP).
    expect(faviconUrl("http://example.com:8080/x")).toBe("https://example.com:8080/favicon.ico");
    expect(faviconUrl("ftp://example.com/")).toBeNull();
  });

  it("uses the first letter of the title, else of the host", () => {
    expect(initialOf({ title: "docs", url: "https://x.io" })).toBe("D");
    expect(initialOf({ title: " ", url: "https://www.zeta.io" })).toBe("Z");
  });
});
