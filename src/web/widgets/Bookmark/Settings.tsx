import { useState } from "react";
import type { BookmarkConfig } from "../../../contract/widgets/bookmark";
import { newId } from "../../lib/ids";
import { normaliseUserUrl } from "../../lib/parse";
import { AddressInput } from "../settings/AddressInput";
import { ListEditor } from "../settings/ListEditor";
import type { WidgetSettingsProps } from "../types";

interface Row {
  id: string;
  title: string;
  /** What was typed; only a valid address replaces the saved one. */
  url: string;
  saved: string;
}

export function BookmarkSettings({ config, onChange }: WidgetSettingsProps<BookmarkConfig>) {
  const [rows, setRows] = useState<Row[]>(() => config.bookmarks.map((b) => ({ ...b, saved: b.url })));
  const publish = (next: Row[]) => {
    setRows(next);
    onChange({
      bookmarks: next.flatMap((row) => {
        const url = normaliseUserUrl(row.url) ?? row.saved;
        return url ? [{ id: row.id, title: row.title.trim() || new URL(url).hostname, url }] : [];
      }),
    });
  };
  return (
    <ListEditor
      items={rows}
      onChange={publish}
      label={(row) => row.title || row.url || "bookmark"}
      empty="No bookmarks yet."
      addLabel="Add bookmark"
      onAdd={() => publish([...rows, { id: newId(), title: "", url: "", saved: "" }])}
      renderFields={(row, set) => (
        <>
          <input
            aria-label="Title"
            placeholder="Title"
            value={row.title}
            maxLength={200}
            onChange={(e) => set({ title: e.target.value })}
          />
          <AddressInput
            label="URL"
            placeholder="example.com"
            value={row.url}
            saved={row.saved}
            onChange={(url) => set({ url })}
          />
        </>
      )}
    />
  );
}
