import { afterEach, describe, expect, it } from "vitest";
import { PRIVATE_WIDGET_TYPES, WIDGET_DEFINITIONS } from "../../widgets/index";
import { i18n, switchLanguage, t } from "../i18n/i18n";
import { definitionFor, WIDGETS, widgetDescription, widgetName } from "./registry";

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
    expect(widgetName(definition.type, t)).toBe("Sundial");
    expect(definition.parseConfig({ shadow: 3 })).toEqual({ shadow: 3 });
    expect(definition.settings).toBeUndefined();
  });

  describe("names in the reader's language", () => {
    afterEach(async () => {
      await switchLanguage("en");
    });

    it("names every widget in English from the catalog, under its type's own key", () => {
      for (const definition of WIDGETS) {
        const key = `widgets.${lowerCamel(definition.type)}`;
        expect(i18n.exists(`${key}.name`, { lng: "en" }), definition.type).toBe(true);
        expect(widgetName(definition.type, t)).toBe(i18n.t(`${key}.name`, { lng: "en" }));
        expect(widgetDescription(definition.type, t)).toBe(i18n.t(`${key}.description`, { lng: "en" }));
      }
      expect(widgetName("Clock", t)).toBe("Clock");
      expect(widgetName("Editor", t)).toBe("Notes");
      expect(widgetName("Sundial", t)).toBe("Sundial");
      expect(widgetDescription("Sundial", t)).toBe("");
    });

    it("names every widget in German", async () => {
      await switchLanguage("de");
      expect(i18n.language).toBe("de");
      expect(widgetName("Clock", t)).toBe("Uhr");
      expect(widgetName("Editor", t)).toBe("Notizen");
      // Settings fields read their words when the form renders, so they follow the switch too.
      const hourFormat = definitionFor("Clock").settings?.parts.find((p) => p.key === "hourFormat")?.part;
      expect(typeof hourFormat === "object" && hourFormat.label).toBe("Stundenformat");
      expect(typeof hourFormat === "object" && hourFormat.options?.[0]?.[1]).toBe("24 Stunden (17:30)");
      for (const definition of WIDGETS) {
        expect(i18n.exists(`widgets.${lowerCamel(definition.type)}.name`, { lng: "de" })).toBe(true);
        expect(widgetDescription(definition.type, t)).not.toBe("");
      }
    });
  });
});

const lowerCamel = (type: string) =>
  type.replace(/\s+(\w)/g, (_, c: string) => c.toUpperCase()).replace(/^\w/, (c) => c.toLowerCase());
