import { describe, expect, it } from "vitest";
import { editorWidget } from "./contract.js";

const parse = editorWidget.parse;

describe("Editor config", () => {
  it("reads notes", () => {
    const notes = [
      { id: "n", title: "Plan", emoji: "📝", markdown: "# Hi", updatedAt: "2026-01-01T00:00:00.000Z" },
    ];
    expect(parse({ notes })).toEqual({ notes });
  });

  it("falls back to defaults for missing or malformed values", () => {
    expect(editorWidget.defaults()).toEqual({ notes: [] });
    expect(parse(42)).toEqual(editorWidget.defaults());
    expect(parse({ notes: null })).toEqual(editorWidget.defaults());
    expect(
      parse({ notes: ["x", { title: 1, markdown: { type: "doc" }, emoji: "", updatedAt: "never" }] }),
    ).toEqual({ notes: [{ id: "note-1", title: "", markdown: "", updatedAt: "" }] });
  });

  it("keeps at most 100 000 characters of Markdown per note", () => {
    const [note] = parse({ notes: [{ id: "a", markdown: "x".repeat(100_001) }] }).notes;
    expect(note?.markdown).toHaveLength(100_000);
  });
});
