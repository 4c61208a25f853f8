import { describe, expect, it } from "vitest";
import { readWidgetTemplate, TEMPLATE_FORMAT, widgetTemplate } from "./widget-template.js";

const INTEGRATION = "0190a0a0-0000-7000-8000-00000000000a";
const calendar = {
  widgetType: "Calendar",
  width: 400,
  height: 300,
  config: {
    sources: [
      {
        id: "a",
        name: "Family",
        url: "https://calendar.google.com/calendar/ical/x/private-secret/basic.ics",
      },
      { id: "b", name: "Work", integrationId: INTEGRATION },
    ],
    days: 14,
    layout: { lg: { x: 0, y: 0, w: 4, h: 3 } },
  },
};

describe("widget templates", () => {
  it("keeps what a visitor may see: no addresses, no integration ids, no grid cells", () => {
    const file = widgetTemplate(calendar, (id) =>
      id === INTEGRATION
        ? { kind: "ical", name: "Nextcloud", secretNames: ["password", "username"] }
        : undefined,
    );
    expect(file).toMatchObject({
      format: TEMPLATE_FORMAT,
      version: 1,
      widget: { widgetType: "Calendar", width: 400, height: 300, config: { days: 14 } },
      integration: { kind: "ical", name: "Nextcloud", secretNames: ["password", "username"] },
    });
    const text = JSON.stringify(file);
    expect(text).not.toContain("private-secret");
    expect(text).not.toContain(INTEGRATION);
    expect(text).not.toContain('"layout"');
    expect(file.widget.config.sources).toEqual([
      expect.objectContaining({ id: "a", name: "Family" }),
      expect.objectContaining({ id: "b", name: "Work" }),
    ]);
  });

  it("reads a file back, completing its settings, and says why another is not one", () => {
    const file = widgetTemplate(calendar, () => undefined);
    const read = readWidgetTemplate(JSON.parse(JSON.stringify(file)));
    expect(read).toMatchObject({
      ok: true,
      template: { widget: { widgetType: "Calendar", config: { days: 14 } } },
    });
    expect(readWidgetTemplate({ widget: {} })).toEqual({ ok: false, problem: { kind: "not_a_template" } });
    expect(readWidgetTemplate({ format: TEMPLATE_FORMAT, version: 9, widget: {} })).toEqual({
      ok: false,
      problem: { kind: "newer_version", version: 9 },
    });
    const unknown = readWidgetTemplate({
      format: TEMPLATE_FORMAT,
      version: 1,
      widget: { widgetType: "Toaster" },
    });
    expect(unknown).toMatchObject({ ok: false, problem: { kind: "unknown_type", widgetType: "Toaster" } });
    // Hand-edited sizes and settings are repaired, never trusted.
    const odd = readWidgetTemplate({
      format: TEMPLATE_FORMAT,
      version: 1,
      widget: { widgetType: "Calendar", width: -3, height: "tall", config: { days: 999, layout: {} } },
      integration: { kind: "ical", name: "x".repeat(500), secretNames: ["a", 3] },
    });
    expect(odd).toMatchObject({
      ok: true,
      template: {
        widget: { width: 300, height: 200 },
        integration: { kind: "ical", secretNames: ["a"] },
      },
    });
    if (odd.ok) {
      expect(odd.template.widget.config.days).toBe(7);
      expect(odd.template.widget.config).not.toHaveProperty("layout");
      expect(odd.template.integration!.name).toHaveLength(100);
    }
  });
});
