import type { EditorConfig } from "../../../contract/widgets/editor";
import { ListEditor } from "../settings/ListEditor";
import type { WidgetSettingsProps } from "../types";
import { noteLabel } from "./logic";

/** Notes: order, titles, emoji, and deleting several at once. */
export function EditorSettings({ config, onChange }: WidgetSettingsProps<EditorConfig>) {
  return (
    <ListEditor
      items={config.notes}
      onChange={(notes) => onChange({ notes })}
      label={noteLabel}
      removeLabel="Delete note"
      empty="No notes yet."
      renderFields={(note, set) => (
        <div className="list-editor-inline">
          <input
            className="emoji-field"
            aria-label={`Emoji of ${noteLabel(note)}`}
            placeholder="📝"
            value={note.emoji ?? ""}
            maxLength={8}
            onChange={(e) => set({ emoji: e.target.value || undefined })}
          />
          <input
            aria-label="Note title"
            placeholder={noteLabel(note)}
            value={note.title}
            maxLength={200}
            onChange={(e) => set({ title: e.target.value })}
          />
        </div>
      )}
    />
  );
}
