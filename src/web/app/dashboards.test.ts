import { describe, expect, it } from "vitest";
import { deleteSentence } from "./dashboards";

describe("the delete-dashboard sentence", () => {
  it("reads right for no widget, one, several and an unknown number", () => {
    expect(deleteSentence(0)).toBe("This deletes the dashboard. It has no widgets. It cannot be undone.");
    expect(deleteSentence(1)).toBe(
      "This deletes the dashboard and its one widget, with whatever it holds. It cannot be undone.",
    );
    expect(deleteSentence(7)).toBe(
      "This deletes the dashboard and its 7 widgets, with their notes, todos and boards. It cannot be undone.",
    );
    expect(deleteSentence(undefined)).toMatch(/^This deletes the dashboard and all of its widgets/);
  });
});
