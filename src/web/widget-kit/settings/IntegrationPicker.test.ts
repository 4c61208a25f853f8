import { describe, expect, it } from "vitest";
import { withIntegration } from "./IntegrationPicker";
import { matchesWords } from "./SearchChecklist";

describe("integration picker", () => {
  it("stores the chosen integration, and leaves the key out when none is", () => {
    const config: { refreshSeconds: number; integrationId?: string } = { refreshSeconds: 30 };
    expect(withIntegration(config, "i1")).toEqual({ refreshSeconds: 30, integrationId: "i1" });
    expect(withIntegration({ ...config, integrationId: "i1" }, "")).toEqual({ refreshSeconds: 30 });
  });
});

describe("search checklist", () => {
  it("matches when every typed word is in the text, in any order and case", () => {
    expect(matchesWords("light.kitchen Kitchen light", "KITCHEN light")).toBe(true);
    expect(matchesWords("light.kitchen Kitchen light", "kitchen porch")).toBe(false);
    expect(matchesWords("anything", "  ")).toBe(true);
  });
});
