import { useState } from "react";
import { useTranslation } from "react-i18next";
import { newId } from "../../../web/lib/ids";
import { normaliseUserUrl } from "../../../web/lib/parse";
import { AddressInput } from "../../../web/widget-kit/settings/AddressInput";
import { ListEditor } from "../../../web/widget-kit/settings/ListEditor";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import { STATUS_CHECKS_MAX, type StatusConfig } from "../contract";

interface Row {
  id: string;
  name: string;
  /** What was typed; only a valid address replaces the saved one. */
  url: string;
  saved: string;
}

/** The addresses to check: add, rename, remove. The name falls back to the address's host. */
export function StatusTargetsSettings({ config, onChange }: WidgetSettingsProps<StatusConfig>) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<Row[]>(() => config.checks.map((t) => ({ ...t, saved: t.url })));
  const publish = (next: Row[]) => {
    setRows(next);
    onChange({
      ...config,
      checks: next.flatMap((row) => {
        const url = normaliseUserUrl(row.url) ?? row.saved;
        if (!url) return [];
        return [{ id: row.id, url, name: row.name.trim() || new URL(url).host }];
      }),
    });
  };
  return (
    <ListEditor
      items={rows}
      onChange={publish}
      label={(row) => row.name || row.url || t("widgets.status.settings.unnamed")}
      empty={t("widgets.status.settings.empty")}
      addLabel={t("widgets.status.settings.add")}
      onAdd={
        rows.length < STATUS_CHECKS_MAX
          ? () => publish([...rows, { id: newId(), name: "", url: "", saved: "" }])
          : undefined
      }
      renderFields={(row, set) => (
        <>
          <input
            aria-label={t("common.name")}
            placeholder={t("widgets.status.settings.namePlaceholder")}
            value={row.name}
            maxLength={200}
            onChange={(e) => set({ name: e.target.value })}
          />
          <AddressInput
            label={t("widgets.status.settings.address")}
            placeholder="jellyfin.home.lan:8096"
            value={row.url}
            saved={row.saved}
            onChange={(url) => set({ url })}
          />
        </>
      )}
    />
  );
}
