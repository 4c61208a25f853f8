import { useTranslation } from "react-i18next";
import { ListEditor } from "../../../web/widget-kit/settings/ListEditor";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import type { EditorConfig } from "../contract";
import { noteLabel } from "./logic";

/** Notes: order, titles, emoji, and deleting several at once. */
export function EditorSettings({ config, onChange }: WidgetSettingsProps<EditorConfig>) {
  const { t } = useTranslation();
  return (
    <ListEditor
      items={config.notes}
      onChange={(notes) => onChange({ notes })}
      label={noteLabel}
      removeLabel={t("widgets.editor.delete")}
      empty={t("widgets.editor.none")}
      renderFields={(note, set) => (
        <div className="list-editor-inline">
          <input
            className="emoji-field"
            aria-label={t("widgets.editor.emojiOf", { name: noteLabel(note) })}
            placeholder="📝"
            value={note.emoji ?? ""}
            maxLength={8}
            onChange={(e) => set({ emoji: e.target.value || undefined })}
          />
          <input
            aria-label={t("widgets.editor.title")}
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
