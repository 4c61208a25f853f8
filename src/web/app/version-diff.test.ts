import { describe, expect, it } from "vitest";
import type { DashboardDocument, DocumentWidget } from "../../contract/dashboard-document";
import { describeDiff, diffVersions } from "./version-diff";

const w = (widgetType: string, positionX = 0, config: object = {}): DocumentWidget =>
  ({ widgetType, height: 100, width: 100, positionX, positionY: 0, config }) as DocumentWidget;
const doc = (widgets: DocumentWidget[]): DashboardDocument => ({
  format: "tessera.dashboard",
  version: 1,
  exportedAt: "2026-11-24T00:00:00.000Z",
  dashboard: { name: "x" },
  widgets,
});

describe("version diff", () => {
  it("counts added, removed, moved and edited widgets, pairing by type in order", () => {
    const before = doc([w("Clock"), w("Clock", 10), w("Todo"), w("Editor")]);
    const after = doc([w("Clock"), w("Clock", 50), w("Todo", 0, { todos: [] }), w("Crypto")]);
    expect(diffVersions(before, after)).toEqual({ added: 1, removed: 1, moved: 1, edited: 1 });
    expect(describeDiff(diffVersions(before, after))).toBe("1 added, 1 removed, 1 moved, 1 edited");
  });

  it("calls a move on a smaller screen (the grid's layout key) a move, not an edit", () => {
    const before = doc([w("Clock", 0, { layout: { sm: [0, 0, 2, 2] } })]);
    const after = doc([w("Clock", 0, { layout: { sm: [1, 0, 2, 2] } })]);
    expect(describeDiff(diffVersions(before, after))).toBe("1 moved");
    expect(describeDiff(diffVersions(after, after))).toBe("no widget changes");
    expect(diffVersions(null, after)).toEqual({ added: 1, removed: 0, moved: 0, edited: 0 });
  });
});
