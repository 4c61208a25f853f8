import { describe, expect, it } from "vitest";
import { PRIVATE_WIDGET_TYPES, WIDGET_DEFINITIONS } from "../../contract/widgets";
import { definitionFor, WIDGETS } from "./registry";

describe("the web widget registry", () => {
  it("offers every contract widget type once, reading the contract's parser and privacy", () => {
    expect(WIDGETS.map((d) => d.type).sort()).toEqual(WIDGET_DEFINITIONS.map((d) => d.type).sort());
    for (const contract of WIDGET_DEFINITIONS) {
      const definition = definitionFor(contract.type);
      expect(definition.parseConfig).toBe(contract.parse);
      expect(definition.defaultConfig()).toEqual(contract.defaults());
      expect(Boolean(definition.provider), contract.type).toBe(PRIVATE_WIDGET_TYPES.includes(contract.type));
    }
  });

  it("gives a stored widget of an unknown type a card that keeps its config", () => {
    const definition = definitionFor("Sundial");
    expect(definition.name).toBe("Sundial");
    expect(definition.parseConfig({ shadow: 3 })).toEqual({ shadow: 3 });
    expect(definition.settings).toBeUndefined();
  });
});
