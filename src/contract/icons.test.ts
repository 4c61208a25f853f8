import { describe, expect, it } from "vitest";
import { iconSlug } from "./icons.js";

describe("bundled icon names", () => {
  it("reads the slug of a Simple Icons name", () => {
    expect(iconSlug("si:jellyfin")).toBe("jellyfin");
    expect(iconSlug("si:graphite_editor")).toBe("graphite_editor");
  });

  it("refuses anything else, so no name can reach outside the set", () => {
    for (const bad of ["jellyfin", "si:", "si:Jellyfin", "si:../x", "si:a/b", `si:${"a".repeat(41)}`])
      expect(iconSlug(bad), bad).toBeNull();
  });
});
