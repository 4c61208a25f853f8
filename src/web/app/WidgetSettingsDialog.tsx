import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Widget } from "../../contract/resources";
import { keepLayout } from "../grid/items";
import { api, describeError } from "../lib/api";
import type { AppSettings } from "../lib/app-settings";
import { applyPresence } from "../lib/live-dashboard";
import { useRemoteChange } from "../lib/live-state";
import {
  conflictCurrent,
  type DialogSync,
  dialogHears,
  dialogRefused,
  type RemoteChange,
} from "../lib/live-sync";
import { useProviderState } from "../lib/providers";
import { useWidgetStore } from "../lib/widget-store";
import { Dialog } from "../ui/Dialog";
import { FormActions } from "../ui/fields";
import { Icon } from "../ui/icons";
import { ProviderGate } from "../widget-kit/data/ProviderGate";
import { SettingsForm } from "../widget-kit/settings/SettingsForm";
import type { WidgetDefinition } from "../widget-kit/types";
import { downloadWidgetFile } from "./widget-files";
import { widgetName } from "./widget-name";

/** Tells the others on the dashboard which widget the user edits (null: none); answered with who is there. */
function sayEditing(dashboardId: string, widgetId: string | null) {
  api.dashboards.presence(dashboardId, widgetId).then(applyPresence, () => {
    // Presence is a courtesy: without it the edit still works.
  });
}

/**
 * Someone else changed the widget while its settings are open: say who, and let the reader load
 * their version or keep (and save) their own.
 */
function ConflictNotice({
  change,
  busy,
  onLoad,
  onKeep,
}: {
  change: RemoteChange;
  busy: boolean;
  onLoad(): void;
  onKeep(): void;
}) {
  const { t } = useTranslation();
  return (
    <div className="live-conflict" role="alert">
      <p>
        {change.by
          ? t("live.conflict.changedBy", { name: change.by.name })
          : t("live.conflict.changedBySomeone")}
      </p>
      <div className="live-conflict-actions">
        <button type="button" className="button small" onClick={onLoad} disabled={busy}>
          {t("live.conflict.loadTheirs")}
        </button>
        <button type="button" className="button small ghost" onClick={onKeep} disabled={busy}>
          {t("live.conflict.keepMine")}
        </button>
      </div>
    </div>
  );
}

/**
 * A widget's settings panel: edits a draft, saved on Save as the whole config, made on the
 * revision the panel opened on (DESIGN section 14): a change someone else made meanwhile is never
 * silently overwritten. While it is open the others on the dashboard see who edits the widget.
 */
export function WidgetSettingsDialog({
  widget,
  definition,
  settings,
  onClose,
}: {
  widget: Widget;
  definition: WidgetDefinition<object>;
  settings: AppSettings;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const store = useWidgetStore();
  const [draft, setDraft] = useState(() => definition.parseConfig(widget.config));
  /** The widget the draft is made on, and someone else's change asked about (live-sync.ts). */
  const [sync, setSync] = useState<DialogSync>({ base: widget, asked: null });
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remote = useRemoteChange(widget.id);
  const conflict = sync.asked;
  const account = useProviderState(definition.provider ?? "suite");

  // Someone else's change: asked about when it touched the settings, else taken in.
  useEffect(() => setSync((s) => dialogHears(s, remote)), [remote]);
  // This tab's own save (a change made just before opening, landing now) moves the base along.
  useEffect(() => {
    setSync((s) =>
      !s.asked && widget.revision > s.base.revision && store.sync.wrote(widget.id) === widget.revision
        ? { base: widget, asked: null }
        : s,
    );
  }, [widget, store]);

  useEffect(() => {
    sayEditing(widget.dashboardId, widget.id);
    return () => sayEditing(widget.dashboardId, null);
  }, [widget.dashboardId, widget.id]);

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

  /** Saves the draft on `revision`, keeping the grid's cells of `onto` (they are not the panel's). */
  const save = async (revision: number, onto: Widget) => {
    setSaving(true);
    setError(null);
    const config = keepLayout(onto.config, JSON.parse(JSON.stringify(draft)) as Record<string, unknown>);
    try {
      await store.saveConfig(widget, config, revision);
      onClose();
    } catch (failure) {
      const current = conflictCurrent(failure);
      if (!current) setError(describeError(failure));
      else {
        const next = dialogRefused(sync, current, remote);
        setSync({ base: next.base, asked: next.asked });
        // Only its place changed meanwhile: nothing to ask, saved on the stored revision.
        if (next.retry) return save(current.revision, current);
      }
      setSaving(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(sync.base.revision, widget);
  };
  const loadTheirs = (change: RemoteChange) => {
    setDraft(definition.parseConfig(change.widget.config));
    setSync({ base: change.widget, asked: null });
  };

  return (
    <Dialog open onClose={onClose} size="md" title={title}>
      <form onSubmit={submit} className="settings-form">
        {conflict && (
          <ConflictNotice
            change={conflict}
            busy={saving}
            onLoad={() => loadTheirs(conflict)}
            // Saved on their revision: the reader chose to replace their change.
            onKeep={() => void save(conflict.widget.revision, conflict.widget)}
          />
        )}
        <SettingsForm layout={layout} config={draft} onChange={setDraft} settings={settings} />
        <FormActions
          onCancel={onClose}
          label={t("common.save")}
          busy={saving}
          busyLabel={t("common.saving")}
          error={error}
        >
          {/* The widget as stored (not the unsaved draft), never with a secret (widget-files.ts). */}
          <button
            type="button"
            className="button ghost push-start"
            onClick={() =>
              void downloadWidgetFile(widget, definition.title?.(draft) || widgetName(definition)).catch(
                (failure) => setError(t("widgetFile.exportFailed", { reason: describeError(failure) })),
              )
            }
          >
            <Icon name="download" size={15} /> {t("widgetFile.export")}
          </button>
        </FormActions>
      </form>
    </Dialog>
  );
}
