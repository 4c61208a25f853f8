import { useState } from "react";
import { useTranslation } from "react-i18next";
import { newId } from "../../../web/lib/ids";
import { normaliseUserUrl } from "../../../web/lib/parse";
import { AddressInput } from "../../../web/widget-kit/settings/AddressInput";
import { ListEditor } from "../../../web/widget-kit/settings/ListEditor";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import { FEEDS_MAX, type FeedConfig } from "../contract";

interface Row {
  id: string;
  /** What was typed; only a valid address replaces the saved one. */
  url: string;
  saved: string;
}

export function FeedSettings({ config, onChange }: WidgetSettingsProps<FeedConfig>) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<Row[]>(() => config.feeds.map((f) => ({ ...f, saved: f.url })));
  const publish = (next: Row[]) => {
    setRows(next);
    onChange({
      ...config,
      feeds: next.flatMap((row) => {
        const url = normaliseUserUrl(row.url) ?? row.saved;
        return url ? [{ id: row.id, url }] : [];
      }),
    });
  };
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
