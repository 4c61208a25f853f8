import { afterEach, describe, expect, it } from "vitest";
import { switchLanguage } from "../i18n/i18n";
import { breakpointLabel, describeCell, describeChange } from "./Grid";

const cell = { x: 1, y: 37, w: 6, h: 15 };

describe("grid announcements", () => {
  afterEach(() => switchLanguage("en"));

  it("says where a widget went, with singular and plural sizes", () => {
    expect(describeChange("Weather", "moved", cell, "xl", [])).toBe(
      "Weather moved: column 2, row 38, 6 columns by 15 rows.",
    );
    expect(describeCell({ x: 0, y: 0, w: 1, h: 1 })).toBe("column 1, row 1, 1 column by 1 row");
    expect(describeChange("Notes", "resized", cell, "md", ["Clock", "Todo"])).toBe(
      "Notes resized: column 2, row 38, 6 columns by 15 rows (layout for tablets). Moved out of the way: Clock, Todo.",
    );
    // Widgets that slid up into the space left are told apart from those that made way.
    expect(describeChange("Clock", "moved", cell, "xl", ["Notes"], ["Todo"])).toBe(
      "Clock moved: column 2, row 38, 6 columns by 15 rows. Moved out of the way: Notes. Moved up: Todo.",
    );
  });

  it("speaks the reader's language", async () => {
    await switchLanguage("de");
    expect(breakpointLabel("sm")).toBe("Smartphones");
    expect(describeChange("Wetter", "moved", cell, "lg", [])).toBe(
      "Wetter verschoben: Spalte 2, Zeile 38, 6 Spalten × 15 Zeilen (Layout für Laptops).",
    );
  });
});
