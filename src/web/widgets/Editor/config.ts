import { asId, asIsoDate, asString, isRecord, uniqueIds } from "../../lib/parse";

export interface Note {
  id: string;
  title: string;
  emoji?: string;
  markdown: string;
  updatedAt: string;
}
export interface EditorConfig {
  notes: Note[];
}

export const defaultEditorConfig = (): EditorConfig => ({ notes: [] });

export function parseEditorConfig(raw: unknown): EditorConfig {
  if (!isRecord(raw) || !Array.isArray(raw.notes)) return defaultEditorConfig();
  const notes: Note[] = [];
  raw.notes.forEach((entry, index) => {
    if (!isRecord(entry)) return;
    const note: Note = {
      id: asId(entry.id, "note", index),
      title: asString(entry.title, "", 200),
      markdown: asString(entry.markdown, "", 100_000),
      updatedAt: asIsoDate(entry.updatedAt) ?? "",
    };
    const emoji = asString(entry.emoji, "", 16).trim();
    if (emoji) note.emoji = emoji;
    notes.push(note);
  });
  return { notes: uniqueIds(notes) };
}

export function updateNote(
  config: EditorConfig,
  id: string,
  patch: Partial<Omit<Note, "id">>,
  now: string,
): EditorConfig {
  return {
    notes: config.notes.map((n) => (n.id === id ? { ...n, ...patch, updatedAt: now } : n)),
  };
}

/** A note's label in the list: its title, else its first line of text. */
export function noteLabel(note: Note): string {
  if (note.title.trim()) return note.title.trim();
  const firstLine = note.markdown.split("\n").find((line) => line.trim()) ?? "";
  return firstLine.replace(/^[#>*\-\s]+/, "").slice(0, 60) || "Untitled";
}
