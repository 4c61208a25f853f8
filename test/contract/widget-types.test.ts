import { describe, expect, it } from "vitest";
import { WidgetTypeSchema } from "../../src/contract/resources.js";
import { WIDGET_DEFINITIONS, WIDGET_TYPES } from "../../src/widgets/index.js";
import { SPEC_WIDGET_TYPES } from "../support/spec.js";

describe("the contract's widget types", () => {
  it("hold the spec's thirteen, spelled exactly and in the spec's order", () => {
    // Types beyond the spec's are additions; the spec's own must all be there as written.
    expect(WIDGET_TYPES.filter((t) => SPEC_WIDGET_TYPES.includes(t))).toEqual(SPEC_WIDGET_TYPES);
    expect(WIDGET_TYPES).toHaveLength(new Set(WIDGET_TYPES).size);
  });

  it("are what the API accepts, one definition each", () => {
    const accepted = (WidgetTypeSchema.anyOf as { const: string }[]).map((s) => s.const);
    expect(accepted).toEqual([...WIDGET_TYPES]);
    expect(WIDGET_DEFINITIONS.map((d) => d.type)).toEqual([...WIDGET_TYPES]);
  });
});
