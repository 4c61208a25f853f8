import { useTranslation } from "react-i18next";
import { newId } from "../../../web/lib/ids";
import { AddressInput, useAddressRows } from "../../../web/widget-kit/settings/AddressInput";
import { ListEditor } from "../../../web/widget-kit/settings/ListEditor";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import { FEEDS_MAX, type FeedConfig } from "../contract";

export function FeedSettings({ config, onChange }: WidgetSettingsProps<FeedConfig>) {
  const { t } = useTranslation();
  const [rows, publish] = useAddressRows(
    config.feeds,
    (row, url) => ({ id: row.id, url }),
    (feeds) => onChange({ ...config, feeds }),
  );
  return (
    <ListEditor
      items={rows}
      onChange={publish}
      label={(row) => row.url || t("widgets.feed.fallbackName")}
      empty={t("widgets.feed.none")}
      addLabel={t("widgets.feed.add")}
      onAdd={
        rows.length < FEEDS_MAX ? () => publish([...rows, { id: newId(), url: "", saved: "" }]) : undefined
      }
      renderFields={(row, set) => (
        <AddressInput
          label={t("widgets.feed.address")}
          placeholder="example.com/feed.xml"
          value={row.url}
          saved={row.saved}
          onChange={(url) => set({ url })}
        />
      )}
    />
  );
}
