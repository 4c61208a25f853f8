import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { newId } from "../../../web/lib/ids";
import { normaliseUserUrl } from "../../../web/lib/parse";
import { Skeleton } from "../../../web/ui/States";
import { AddressInput, type AddressRow, useAddressRows } from "../../../web/widget-kit/settings/AddressInput";
import { ListEditor } from "../../../web/widget-kit/settings/ListEditor";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import { BOOKMARK_STATUS_MAX, type Bookmark, type BookmarkConfig } from "../contract";
import { IconChoice } from "./IconChoice";
import { iconHint } from "./logic";

// The picker (and the icon search behind it) loads only when someone opens it.
const IconPicker = lazy(() => import("./IconPicker"));
// The dot's choice (and the person's Status checks it lists) loads with the settings, not the page.
const StatusChoice = lazy(() => import("./StatusChoice"));

export function BookmarkSettings({ config, onChange }: WidgetSettingsProps<BookmarkConfig>) {
  const { t } = useTranslation();
  const [rows, publish] = useAddressRows(
    config.bookmarks,
    (row, url) => ({
      id: row.id,
      title: row.title.trim() || new URL(url).hostname,
      url,
      ...(row.icon ? { icon: row.icon } : {}),
      ...(row.status ? { status: row.status } : {}),
    }),
    (bookmarks) => onChange({ bookmarks }),
  );
  // One picker open at a time: the row whose icon is being chosen.
  const [picking, setPicking] = useState<string | null>(null);
  const name = (row: AddressRow<Bookmark>) => row.title || row.url || t("widgets.bookmark.fallbackName");
  return (
    <ListEditor
      items={rows}
      onChange={publish}
      label={name}
      empty={t("widgets.bookmark.none")}
      addLabel={t("widgets.bookmark.add")}
      onAdd={() => publish([...rows, { id: newId(), title: "", url: "", saved: "" }])}
      renderFields={(row, set) => (
        <>
          <input
            aria-label={t("widgets.bookmark.title")}
            placeholder={t("widgets.bookmark.title")}
            value={row.title}
            maxLength={200}
            onChange={(e) => set({ title: e.target.value })}
          />
          <AddressInput
            label={t("widgets.bookmark.url")}
            placeholder="example.com"
            value={row.url}
            saved={row.saved}
            onChange={(url) => set({ url })}
          />
          <IconChoice
            icon={row.icon}
            name={name(row)}
            open={picking === row.id}
            onToggle={() => setPicking(picking === row.id ? null : row.id)}
          />
          <Suspense fallback={<Skeleton height={32} width="100%" />}>
            <StatusChoice
              name={name(row)}
              full={!row.status && rows.filter((r) => r.status).length >= BOOKMARK_STATUS_MAX}
              value={row.status}
              onChange={(status) => set({ status })}
            />
          </Suspense>
          {picking === row.id && (
            <Suspense fallback={<Skeleton height={120} width="100%" />}>
              <IconPicker
                value={row.icon}
                name={name(row)}
                hint={iconHint({ title: row.title, url: normaliseUserUrl(row.url) ?? row.saved })}
                onPick={(icon) => {
                  set({ icon });
                  setPicking(null);
                }}
                onClose={() => setPicking(null)}
              />
            </Suspense>
          )}
        </>
      )}
    />
  );
}
