import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Widget } from "../../contract/resources";
import type { AppSettings } from "../lib/app-settings";
import { useProviderState } from "../lib/providers";
import { Dialog } from "../ui/Dialog";
import { FormActions } from "../ui/fields";
import { ProviderGate } from "../widget-kit/data/ProviderGate";
import { SettingsForm } from "../widget-kit/settings/SettingsForm";
import type { WidgetDefinition } from "../widget-kit/types";
import { widgetName } from "./widget-name";

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
  const { t } = useTranslation();
  const [draft, setDraft] = useState(() => definition.parseConfig(widget.config));
  const account = useProviderState(definition.provider ?? "suite");
  const layout = definition.settings;
  if (!layout) return null;
  const title = t("dashboard.widgetSettings", { name: widgetName(definition) });
  // Choices read from the account (labels, calendars) wait for it: the panel says what the
  // widget says, and offers nothing to save.
  const needs = definition.settingsNeedAccount;
  if (needs && definition.provider && account.state !== "ready") {
    return (
      <Dialog open onClose={onClose} size="md" title={title}>
        <ProviderGate provider={definition.provider} purpose={needs.purpose}>
          {null}
        </ProviderGate>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            {t("common.close")}
          </button>
        </div>
      </Dialog>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave(draft);
    onClose();
  };
  return (
    <Dialog open onClose={onClose} size="md" title={title}>
      <form onSubmit={submit} className="settings-form">
        <SettingsForm layout={layout} config={draft} onChange={setDraft} settings={settings} />
        <FormActions onCancel={onClose} label={t("common.save")} />
      </form>
    </Dialog>
  );
}
