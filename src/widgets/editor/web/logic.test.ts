import { describe, expect, it } from "vitest";
import { editorWidget } from "../contract";
import {
  noteFromPage,
  noteLabel,
  readNotesView,
  rememberNotesView,
  updateNote,
  type ViewStorage,
} from "./logic";

describe("Editor notes", () => {
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

describe("importing a Notion page", () => {
  const page = {
    id: "p1",
    title: "Project plan",
    url: null,
    icon: "📋",
    lastEditedAt: null,
    parentId: null,
    markdown: "# Plan\n\n- first",
    truncated: false,
  };

  it("becomes a note with the page's title, emoji and Markdown", () => {
    expect(noteFromPage(page, "n1", "2026-03-02T00:00:00.000Z")).toEqual({
      id: "n1",
      title: "Project plan",
      emoji: "📋",
      markdown: "# Plan\n\n- first",
      updatedAt: "2026-03-02T00:00:00.000Z",
    });
    // The result survives the config parser unchanged.
    const note = noteFromPage(page, "n1", "2026-03-02T00:00:00.000Z");
    expect(editorWidget.parse({ notes: [note] }).notes[0]).toEqual(note);
  });

  it("says when the page came in part, and stays within the stored size", () => {
    const partial = noteFromPage({ ...page, icon: null, truncated: true }, "n2", "2026-03-02T00:00:00.000Z");
    expect(partial.emoji).toBeUndefined();
    expect(partial.markdown).toMatch(/Imported in part/);
    const huge = noteFromPage({ ...page, markdown: "x".repeat(200_000) }, "n3", "2026-03-02T00:00:00.000Z");
    expect(huge.markdown).toHaveLength(100_000);
  });
});

describe("the notes view, remembered per device", () => {
  const memory = (): ViewStorage & { keys(): string[] } => {
    const map = new Map<string, string>();
    return {
      getItem: (key) => map.get(key) ?? null,
      setItem: (key, value) => void map.set(key, value),
      removeItem: (key) => void map.delete(key),
      keys: () => [...map.keys()],
    };
  };

  it("shows the source until the rendered view is chosen, per widget", () => {
    const storage = memory();
    expect(readNotesView("w1", storage)).toBe("source");
    rememberNotesView("w1", "rendered", storage);
    expect(readNotesView("w1", storage)).toBe("rendered");
    expect(readNotesView("w2", storage)).toBe("source");
    rememberNotesView("w1", "source", storage);
    expect(readNotesView("w1", storage)).toBe("source");
    // The default leaves nothing behind.
    expect(storage.keys()).toEqual([]);
  });

  it("falls back to the source when storage is missing or refuses", () => {
    const refusing: ViewStorage = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
      removeItem: () => {},
    };
    expect(readNotesView("w1", null)).toBe("source");
    expect(() => rememberNotesView("w1", "rendered", refusing)).not.toThrow();
    expect(readNotesView("w1", refusing)).toBe("source");
  });
});
