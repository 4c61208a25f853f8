import { describe, expect, it } from "vitest";
import type { DashboardDocument } from "../../contract/dashboard-document";
import { WIDGET_TYPES } from "../../widgets/index";
import { ApiError } from "../lib/api";
import { problemLines, readDocumentText } from "./PortabilityDialogs";

const doc = (types: string[]) => ({
  format: "tessera.dashboard",
  version: 1,
  exportedAt: "2026-11-28T10:00:00.000Z",
  dashboard: { name: "Home" },
  widgets: types.map((widgetType) => ({
    widgetType,
    height: 100,
    width: 100,
    positionX: 0,
    positionY: 0,
    config: {},
  })),
});
const text = (types: string[]) => JSON.stringify(doc(types), null, 2);

/** What the import dialog says of a file that will not import (issue 35). */
describe("the import dialog's messages", () => {
  it("takes a whole dashboard file", () => {
    const read = readDocumentText(`\uFEFF${text(["Clock", "Todo"])}`);
    expect(read.error).toBeUndefined();
    expect(read.document?.widgets).toHaveLength(2);
  });

  it("says a file cut short is cut off, and where it stops, not that it is not JSON", () => {
    const whole = text(["Clock", "Todo"]);
    for (const cut of [whole.slice(0, whole.length - 3), whole.slice(0, whole.indexOf('"Todo"') + 3)]) {
      const read = readDocumentText(cut);
      expect(read.document).toBeUndefined();
      const lines = cut.trimEnd().split("\n");
      expect(read.error, cut.slice(-20)).toBe(
        `This file looks cut off: its JSON stops unfinished at line ${lines.length}, column ${lines.at(-1)!.length + 1}. Export the dashboard again, or use a complete copy.`,
      );
    }
    // An export is one line: the column is where it stops.
    expect(readDocumentText(JSON.stringify(doc(["Clock"])).slice(0, 50)).error).toMatch(
      /at line 1, column 51\./,
    );
  });

  it("says where a damaged file breaks, as line and column", () => {
    const damaged = text(["Clock"]).replace('"version": 1,', '"version": 1 x');
    const read = readDocumentText(damaged);
    const line = damaged.split("\n").findIndex((l) => l.includes("1 x")) + 1;
    const column = damaged.split("\n")[line - 1]!.indexOf("x") + 1;
    expect(read.error).toBe(
      `This file looks damaged: its JSON breaks at line ${line}, column ${column}. Export the dashboard again, or use an undamaged copy.`,
    );
  });

  it("still calls a file that never was JSON not JSON", () => {
    for (const other of ["name,url\nHome,https://x", "<html></html>", ""])
      expect(readDocumentText(other).error).toBe(
        "This file is not JSON; a Tessera dashboard file ends in .tessera.json.",
      );
    expect(readDocumentText('{"hello": "world"}').error).toMatch(/not a Tessera dashboard file/);
  });

  it("names a widget type this Tessera does not have, where it is, and the types there are", () => {
    const read = readDocumentText(text(["Clock", "Foo", "Bar"]));
    expect(read.document).toBeUndefined();
    expect(read.error).toMatch(/^This file holds 2 widgets of types this Tessera does not have/);
    expect(read.details).toEqual([
      `Unknown widget type “Foo” at /widgets/1/widgetType. This Tessera has: ${WIDGET_TYPES.join(", ")}.`,
      `Unknown widget type “Bar” at /widgets/2/widgetType. This Tessera has: ${WIDGET_TYPES.join(", ")}.`,
    ]);
  });

  it("turns the server's refusal into the same words, and other problems into their places", () => {
    const refusal = new ApiError(
      400,
      {
        type: "https://tessera.dev/problems/validation-failed",
        title: "Bad Request",
        status: 400,
        code: "validation_failed",
        detail: "The document has 2 problems; nothing was imported",
        errors: [
          { path: "/widgets/0/widgetType", message: 'Unknown widget type "Foo" at /widgets/0/widgetType; …' },
          { path: "/widgets/1/height", message: "Expected number to be greater than 0" },
        ],
      },
      "The document has 2 problems; nothing was imported",
    );
    expect(problemLines(refusal, doc(["Foo", "Clock"]) as DashboardDocument)).toEqual([
      `Unknown widget type “Foo” at /widgets/0/widgetType. This Tessera has: ${WIDGET_TYPES.join(", ")}.`,
      "/widgets/1/height",
    ]);
    // Without the file (or a type it has) the place is all there is to say.
    expect(problemLines(refusal, null)).toEqual(["/widgets/0/widgetType", "/widgets/1/height"]);
    expect(problemLines(new Error("offline"), null)).toEqual([]);
  });
});
