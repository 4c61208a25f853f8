import { useTranslation } from "react-i18next";
import { newId } from "../../../web/lib/ids";
import { AddressInput, useAddressRows } from "../../../web/widget-kit/settings/AddressInput";
import { ListEditor } from "../../../web/widget-kit/settings/ListEditor";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import { STATUS_CHECKS_MAX, type StatusConfig } from "../contract";

/** The addresses to check: add, rename, remove. The name falls back to the address's host. */
export function StatusTargetsSettings({ config, onChange }: WidgetSettingsProps<StatusConfig>) {
  const { t } = useTranslation();
  const [rows, publish] = useAddressRows(
    config.checks,
    (row, url) => ({ id: row.id, url, name: row.name.trim() || new URL(url).host }),
    (checks) => onChange({ ...config, checks }),
  );
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
