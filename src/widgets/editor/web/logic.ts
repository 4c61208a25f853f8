import { t } from "../../../web/i18n/i18n";
import type { NotesPage } from "../../../web/lib/data-api";
import { type EditorConfig, NOTE_MARKDOWN_MAX, type Note } from "../contract";

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
  return firstLine.replace(/^[#>*\-\s]+/, "").slice(0, 60) || t("widgets.editor.untitled");
}

/** A Notion page (already Markdown, from the server) as a new note. */
export function noteFromPage(page: NotesPage, id: string, now: string): Note {
  let markdown = page.truncated
    ? `${page.markdown}\n\n> ${t("widgets.editor.import.partial")}`
    : page.markdown;
  if (markdown.length > NOTE_MARKDOWN_MAX) markdown = markdown.slice(0, NOTE_MARKDOWN_MAX);
  return {
    id,
    title: page.title.slice(0, 200),
    ...(page.icon ? { emoji: page.icon.slice(0, 16) } : {}),
    markdown,
    updatedAt: now,
  };
}
