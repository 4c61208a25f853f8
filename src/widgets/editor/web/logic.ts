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

/** What a notes widget shows of its note: the Markdown source or the rendered page. */
export type NotesView = "source" | "rendered";

/** The slice of Web Storage the view memory needs (tests hand in a Map-backed one). */
export type ViewStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const viewKey = (widgetId: string) => `tessera:notes-view:${widgetId}`;

/**
 * Which view this device last chose for a notes widget. Kept per device, not in the config: the
 * config is shared by everyone who edits the dashboard, so one person switching to the preview
 * would flip it for the others (and save a version and a live update for it), and a viewer may
 * not write the config at all. Storage that throws (some private modes) reads as the source.
 */
export function readNotesView(widgetId: string, storage: ViewStorage | null = safeStorage()): NotesView {
  try {
    return storage?.getItem(viewKey(widgetId)) === "rendered" ? "rendered" : "source";
  } catch {
    return "source";
  }
}

/** Remembers the choice; the source is the default, so choosing it leaves no key behind. */
export function rememberNotesView(
  widgetId: string,
  view: NotesView,
  storage: ViewStorage | null = safeStorage(),
): void {
  try {
    if (view === "rendered") storage?.setItem(viewKey(widgetId), "rendered");
    else storage?.removeItem(viewKey(widgetId));
  } catch {
    // Not remembered: the choice still holds until the page is left.
  }
}

function safeStorage(): ViewStorage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}
