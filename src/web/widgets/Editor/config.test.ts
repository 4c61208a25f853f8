import { describe, expect, it } from "vitest";
import { defaultEditorConfig, noteLabel, parseEditorConfig, updateNote } from "./config";

describe("Editor config", () => {
  it("reads notes", () => {
    const notes = [
      { id: "n", title: "Plan", emoji: "📝", markdown: "# Hi", updatedAt: "2026-01-01T00:00:00.000Z" },
    ];
    expect(parseEditorConfig({ notes })).toEqual({ notes });
  });

  it("falls back to defaults for missing or malformed values", () => {
    expect(parseEditorConfig(42)).toEqual(defaultEditorConfig());
    expect(parseEditorConfig({ notes: null })).toEqual(defaultEditorConfig());
    expect(
      parseEditorConfig({
        notes: ["x", { title: 1, markdown: { type: "doc" }, emoji: "", updatedAt: "never" }],
      }),
    ).toEqual({
      notes: [{ id: "note-1", title: "", markdown: "", updatedAt: "" }],
    });
  });

  it("updates one note and stamps it", () => {
    const config = { notes: [{ id: "a", title: "", markdown: "", updatedAt: "" }] };
    expect(updateNote(config, "a", { markdown: "x" }, "2026-02-02T00:00:00.000Z").notes[0]).toEqual({
      id: "a",
      title: "",
      markdown: "x",
      updatedAt: "2026-02-02T00:00:00.000Z",
    });
  });

  it("labels a note by title, else by its first line", () => {
    expect(noteLabel({ id: "a", title: " Trip ", markdown: "", updatedAt: "" })).toBe("Trip");
    expect(noteLabel({ id: "a", title: "", markdown: "\n## Groceries\n- milk", updatedAt: "" })).toBe(
      "Groceries",
    );
    expect(noteLabel({ id: "a", title: "", markdown: "", updatedAt: "" })).toBe("Untitled");
  });
});
