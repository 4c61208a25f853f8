import type { NotesPage } from "../../lib/data-api";
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

/** Stored notes are capped at 100 000 characters (see parseEditorConfig). */
const MAX_MARKDOWN = 100_000;

/** A Notion page (already Markdown, from the server) as a new note. */
export function noteFromPage(page: NotesPage, id: string, now: string): Note {
  let markdown = page.truncated
    ? `${page.markdown}\n\n> Imported in part: the page was too long or too deeply nested.`
    : page.markdown;
  if (markdown.length > MAX_MARKDOWN) markdown = markdown.slice(0, MAX_MARKDOWN);
  return {
    id,
    title: page.title.slice(0, 200),
    ...(page.icon ? { emoji: page.icon.slice(0, 16) } : {}),
    markdown,
    updatedAt: now,
  };
}
