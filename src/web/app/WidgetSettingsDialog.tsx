import { type FormEvent, useState } from "react";
import type { Widget } from "../../contract/resources";
import type { AppSettings } from "../lib/app-settings";
import { Dialog } from "../ui/Dialog";
import type { WidgetDefinition } from "../widgets/types";

/** A widget's settings panel: edits a draft, applied on Save (and then saved like any change). */
export function WidgetSettingsDialog({
  widget,
  definition,
  settings,
  onSave,
  onClose,
}: {
  widget: Widget;
  definition: WidgetDefinition<object>;
  settings: AppSettings;
  onSave(config: object): void;
  onClose(): void;
}) {
  const [draft, setDraft] = useState(() => definition.parseConfig(widget.config));
  const SettingsForm = definition.Settings;
  if (!SettingsForm) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave(draft);
    onClose();
  };
  return (
    <Dialog open onClose={onClose} size="md" title={`${definition.name} settings`}>
      <form onSubmit={submit} className="settings-form">
        <SettingsForm config={draft} onChange={setDraft} settings={settings} />
        <div className="dialog-actions">
          <button type="button" className="button ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary">
            Save
          </button>
        </div>
      </form>
    </Dialog>
  );
}
