import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import type { NotesPage } from "../../../web/lib/data-api";
import { newId } from "../../../web/lib/ids";
import { Icon } from "../../../web/ui/icons";
import { Skeleton } from "../../../web/ui/States";
import { useToasts } from "../../../web/ui/Toasts";
import { DeleteButton } from "../../../web/widget-kit/ItemEditing";
import { defineWidget, type WidgetProps, withReadOnlyView } from "../../../web/widget-kit/types";
import { WidgetEmpty } from "../../../web/widget-kit/WidgetEmpty";
import { editorWidget as contract, type EditorConfig } from "../contract";
import { noteFromPage, noteLabel, readNotesView, rememberNotesView, updateNote } from "./logic";
import { EditorSettings } from "./Settings";

// marked and DOMPurify load only when someone opens a preview.
const MarkdownPreview = lazy(() => import("./MarkdownPreview"));
const ImportDialog = lazy(() => import("./ImportDialog"));

/** A visitor's view: every note rendered, one after the other; nothing to edit. */
function NotesView({ config }: { config: EditorConfig }) {
  const { t } = useTranslation();
  if (config.notes.length === 0) return <WidgetEmpty text={t("widgets.editor.none")} />;
  return (
    <div className="notes-view">
      {config.notes.map((note) => (
        <article key={note.id} className="notes-view-note" aria-label={noteLabel(note)}>
          {/* An untitled note is named after its first line, which the rendering shows anyway. */}
          {(note.title.trim() || note.emoji) && (
            <h3 className="notes-view-title">
              {note.emoji && <span aria-hidden="true">{note.emoji} </span>}
              {note.title.trim()}
            </h3>
          )}
          <Suspense fallback={<Skeleton height={60} width="100%" />}>
            <MarkdownPreview markdown={note.markdown} />
          </Suspense>
        </article>
      ))}
    </div>
  );
}

/** The command palette opens a note by navigating here with `{openNote: {widgetId, noteId}}`. */
function useOpenNote(widgetId: string, open: (noteId: string) => void) {
  const location = useLocation();
  const handled = useRef<unknown>(null);
  const target = (location.state as { openNote?: { widgetId: string; noteId: string } } | null)?.openNote;
  useEffect(() => {
    if (!target || target.widgetId !== widgetId || handled.current === target) return;
    handled.current = target;
    open(target.noteId);
  }, [target, widgetId, open]);
}

/** The preview switch, remembered on this device for this widget (logic.ts says why not in the config). */
function useRememberedPreview(widgetId: string): [boolean, (preview: boolean) => void] {
  const [preview, setPreview] = useState(() => readNotesView(widgetId) === "rendered");
  const choose = useCallback(
    (next: boolean) => {
      setPreview(next);
      rememberNotesView(widgetId, next ? "rendered" : "source");
    },
    [widgetId],
  );
  return [preview, choose];
}

function NotesEditor({ widget, config, update }: WidgetProps<EditorConfig>) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<string | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const [preview, setPreview] = useRememberedPreview(widget.id);
  useOpenNote(widget.id, (noteId) => {
    setSelected(noteId);
    setPreview(false);
    requestAnimationFrame(() => {
      rootRef.current?.scrollIntoView({ block: "nearest" });
      rootRef.current
        ?.querySelector<HTMLElement>(".editor-text, .editor-title")
        ?.focus({ preventScroll: true });
    });
  });
  const [importing, setImporting] = useState(false);
  const toasts = useToasts();
  const note = config.notes.find((n) => n.id === selected) ?? config.notes[0] ?? null;

  const create = () => {
    const id = newId();
    update((c) => ({
      notes: [{ id, title: "", markdown: "", updatedAt: new Date().toISOString() }, ...c.notes],
    }));
    setSelected(id);
    setPreview(false);
  };
  const importPage = (page: NotesPage) => {
    const id = newId();
    update((c) => ({ notes: [noteFromPage(page, id, new Date().toISOString()), ...c.notes] }));
    setSelected(id);
    setPreview(true);
    setImporting(false);
    toasts.show({
      tone: "success",
      message: t("widgets.editor.imported", { title: page.title || t("widgets.editor.untitled") }),
    });
  };
  const importDialog = importing && (
    <Suspense fallback={null}>
      <ImportDialog onImport={importPage} onClose={() => setImporting(false)} />
    </Suspense>
  );
  const change = (patch: { title?: string; markdown?: string; emoji?: string }) => {
    if (!note) return;
    update((c) => updateNote(c, note.id, patch, new Date().toISOString()));
  };

  if (!note) {
    return (
      <WidgetEmpty text={t("widgets.editor.empty")}>
        <div className="widget-empty-actions">
          <button type="button" className="button small" onClick={create}>
            <Icon name="plus" size={14} /> {t("widgets.editor.newNote")}
          </button>
          <button type="button" className="button ghost small" onClick={() => setImporting(true)}>
            <Icon name="download" size={14} /> {t("widgets.editor.import.title")}
          </button>
        </div>
        {importDialog}
      </WidgetEmpty>
    );
  }

  return (
    <div className="editor" ref={rootRef}>
      <nav className="editor-notes" aria-label={t("widgets.editor.notes")}>
        <div className="editor-new">
          <button type="button" className="button ghost small" onClick={create}>
            <Icon name="plus" size={14} /> {t("widgets.editor.new")}
          </button>
          <button
            type="button"
            className="icon-button small"
            aria-label={t("widgets.editor.import.title")}
            title={t("widgets.editor.import.title")}
            onClick={() => setImporting(true)}
          >
            <Icon name="download" size={14} />
          </button>
        </div>
        <ul>
          {config.notes.map((n) => (
            <li key={n.id}>
              <button
                type="button"
                className={`editor-note${n.id === note.id ? " is-selected" : ""}`}
                aria-current={n.id === note.id ? "true" : undefined}
                onClick={() => setSelected(n.id)}
              >
                {n.emoji && <span aria-hidden="true">{n.emoji}</span>}
                <span className="editor-note-label">{noteLabel(n)}</span>
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div className="editor-main">
        <div className="editor-toolbar">
          <input
            className="editor-emoji"
            aria-label={t("widgets.editor.emoji")}
            placeholder="📝"
            value={note.emoji ?? ""}
            maxLength={8}
            onChange={(e) => change({ emoji: e.target.value })}
          />
          <input
            className="editor-title"
            aria-label={t("widgets.editor.title")}
            // Untitled, the note is named after its first line, in the list and here alike.
            placeholder={noteLabel({ ...note, title: "" })}
            value={note.title}
            maxLength={200}
            onChange={(e) => change({ title: e.target.value })}
          />
          <fieldset className="segmented">
            <legend className="visually-hidden">{t("widgets.editor.view")}</legend>
            <button type="button" aria-pressed={!preview} onClick={() => setPreview(false)}>
              {t("common.edit")}
            </button>
            <button type="button" aria-pressed={preview} onClick={() => setPreview(true)}>
              {t("widgets.editor.preview")}
            </button>
          </fieldset>
          <DeleteButton
            // Another note starts unasked.
            key={note.id}
            label={t("widgets.editor.delete")}
            confirm={t("widgets.editor.deleteConfirm")}
            onDelete={() => {
              update((c) => ({ notes: c.notes.filter((n) => n.id !== note.id) }));
              setSelected(null);
            }}
          />
        </div>
        {preview ? (
          <div className="editor-preview">
            <Suspense fallback={<Skeleton height={80} width="100%" />}>
              <MarkdownPreview markdown={note.markdown} />
            </Suspense>
          </div>
        ) : (
          <textarea
            className="editor-text"
            aria-label={t("widgets.editor.text")}
            placeholder={t("widgets.editor.textPlaceholder")}
            value={note.markdown}
            onChange={(e) => change({ markdown: e.target.value })}
          />
        )}
      </div>
      {importDialog}
    </div>
  );
}

function EditorPreview() {
  const { t } = useTranslation();
  return (
    <div className="preview preview-editor">
      <strong>{t("widgets.editor.previewPicture.heading")}</strong>
      <span>{t("widgets.editor.previewPicture.hike")}</span>
      <span>{t("widgets.editor.previewPicture.call")}</span>
    </div>
  );
}

export default defineWidget(contract, {
  group: "content",
  findables: (config) =>
    config.notes.map((n) => ({
      kind: "note",
      itemId: n.id,
      label: noteLabel(n),
      detail: "",
      text: n.markdown.slice(0, 2000),
    })),
  words: (t) => ({ name: t("widgets.editor.name"), description: t("widgets.editor.description") }),
  keywords: ["markdown", "editor", "text", "notes", "writing"],
  icon: "note",
  defaultSize: { columns: 8, rows: 19 },
  minSize: { columns: 4, rows: 10 },
  Component: withReadOnlyView(NotesEditor, NotesView),
  settings: [EditorSettings],
  Preview: EditorPreview,
});
