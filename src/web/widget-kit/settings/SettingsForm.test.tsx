import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { switchLanguage } from "../../i18n/i18n";
import { defaultAppSettings } from "../../lib/app-settings";
import { definitionFor } from "../registry";
import { SettingsForm } from "./SettingsForm";

/** The generated fields of a widget type's settings panel (custom parts may need the data layer). */
function panel(type: string, stored: unknown) {
  const definition = definitionFor(type);
  const layout = definition.settings;
  if (!layout) throw new Error(`${type} has no settings`);
  const settings = { ...defaultAppSettings(), hourFormat: "24" as const, timezone: "Europe/Berlin" };
  return renderToStaticMarkup(
    <SettingsForm
      layout={{ ...layout, parts: layout.parts.filter(({ part }) => typeof part !== "function") }}
      config={definition.parseConfig(stored)}
      onChange={() => {}}
      settings={settings}
    />,
  );
}

describe("generated settings fields", () => {
  it("an optional enum: a select whose empty choice follows the app settings, options in the given order", () => {
    const html = panel("Clock", { hourFormat: "12" });
    expect(html).toMatch(/<label for="[^"]+">Hour format<\/label><select/);
    expect(html).toContain('<option value="">Same as app settings (24 h)</option>');
    expect(html.indexOf('value="24"')).toBeLessThan(html.indexOf('value="12"'));
    expect(html).toMatch(/<option value="12" selected="">12 hours \(5:30 PM\)<\/option>/);
  });

  it("a boolean: a labelled checkbox", () => {
    expect(panel("Clock", { showSeconds: false })).toContain(
      '<label class="checkbox-row"><input type="checkbox"/>Show seconds</label>',
    );
    expect(panel("Clock", {})).toContain('<input type="checkbox" checked=""/>Show seconds');
  });

  it("text: the schema's maximum length and the stored value", () => {
    const html = panel("Countdown", { title: "Launch" });
    expect(html).toMatch(
      /<input id="[^"]+" type="text" maxLength="200" placeholder="Summer holiday" value="Launch"\/>/,
    );
  });

  it("an enum as radio buttons", () => {
    const html = panel("Weather", { unit: "fahrenheit" });
    expect(html).toContain('<legend class="field-label">Temperature</legend>');
    expect(html).toMatch(
      /<input type="radio" name="[^"]+" checked="" value="fahrenheit"\/>Fahrenheit \(°F\)/,
    );
  });

  it("words given as functions are read at render time, in the current language", async () => {
    await switchLanguage("de");
    try {
      const html = panel("Weather", { unit: "celsius" });
      expect(html).toContain('<legend class="field-label">Temperatur</legend>');
      expect(html).toMatch(/checked="" value="celsius"\/>Celsius \(°C\)/);
    } finally {
      await switchLanguage("en");
    }
  });

  it("a required enum without an empty choice", () => {
    const html = panel("Codehost", { tab: "pulls" });
    expect(html).not.toContain('<option value="">');
    expect(html).toContain('<option value="pulls" selected="">Pull requests</option>');
  });

  it("text with a hint tied to the input", () => {
    const html = panel("Codehost Heatmap", { login: "octocat" });
    expect(html).toMatch(/aria-describedby="([^"]+)-hint"/);
    expect(html).toContain('value="octocat"');
    expect(html).toContain("Leave empty for the account you connected.");
  });
});
