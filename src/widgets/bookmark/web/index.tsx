import { type KeyboardEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { iconSlug } from "../../../contract/icons";
import { hostname } from "../../../contract/widget-kit/fields";
import { useEditLayout } from "../../../web/lib/edit-mode";
import { newId } from "../../../web/lib/ids";
import { moveItem, useDragList } from "../../../web/lib/reorder";
import { Icon, IconButton } from "../../../web/ui/icons";
import { useDataSource } from "../../../web/widget-kit/data/source";
import { PreviewList } from "../../../web/widget-kit/PreviewList";
import { useAddressDraft } from "../../../web/widget-kit/settings/AddressInput";
import { defineWidget, type WidgetProps, withReadOnlyView } from "../../../web/widget-kit/types";
import { WidgetEmpty } from "../../../web/widget-kit/WidgetEmpty";
import {
  type Bookmark,
  type BookmarkConfig,
  bookmarkWidget as contract,
  type LinkStatusResult,
} from "../contract";
import { BundledIconTile } from "./BundledIcon";
import { faviconUrl, initialOf } from "./logic";
import { BookmarkSettings } from "./Settings";
import { StatusDot, StatusWords } from "./StatusDot";
import { useLinkStatuses } from "./status-api";
import "./bookmark-status.css";

/** A stable, well spread hue per site (FNV-1a, then the golden angle), for the initial's tile. */
function hue(text: string): number {
  let h = 0x811c9dc5;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return Math.round((h % 1000) * 137.508) % 360;
}

function Favicon({ bookmark }: { bookmark: Bookmark }) {
  const [failed, setFailed] = useState(false);
  // Visitors of a public page have no session to ask our server with.
  const src = useDataSource().kind === "public" ? null : faviconUrl(bookmark.url);
  if (failed || !src) {
    return (
      <span
        className="bookmark-initial"
        style={{ background: `hsl(${hue(hostname(bookmark.url))} 55% 45%)` }}
        aria-hidden="true"
      >
        {initialOf(bookmark)}
      </span>
    );
  }
  return (
    <img
      className="bookmark-favicon"
      src={src}
      alt=""
      width={20}
      height={20}
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
      onLoad={(e) => {
        // Some sites answer /favicon.ico with an HTML page or a 1×1 pixel.
        if (e.currentTarget.naturalWidth < 8) setFailed(true);
      }}
    />
  );
}

/** The chosen bundled icon, else (or when the set lacks it) the site's favicon, else the initial. */
function BookmarkIcon({ bookmark }: { bookmark: Bookmark }) {
  const slug = bookmark.icon ? iconSlug(bookmark.icon) : null;
  const favicon = <Favicon bookmark={bookmark} />;
  return slug ? <BundledIconTile slug={slug} fallback={favicon} /> : favicon;
}

function BookmarkForm({
  initial,
  onSubmit,
  onCancel,
}: {
  initial?: Bookmark;
  onSubmit(value: { title: string; url: string }): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const [title, setTitle] = useState(initial?.title ?? "");
  const url = useAddressDraft(initial?.url ?? "", (address) =>
    onSubmit({ title: title.trim() || hostname(address), url: address }),
  );
  return (
    <form className="inline-form" onSubmit={url.submit} onKeyDown={(e) => e.key === "Escape" && onCancel()}>
      <input
        aria-label={t("widgets.bookmark.titleField")}
        placeholder={t("widgets.bookmark.titlePlaceholder")}
        value={title}
        maxLength={200}
        onChange={(e) => setTitle(e.target.value)}
      />
      <input
        aria-label={t("widgets.bookmark.urlField")}
        placeholder={t("widgets.bookmark.urlPlaceholder")}
        value={url.text}
        // biome-ignore lint/a11y/noAutofocus: the form opens on request; typing goes straight in.
        autoFocus={!initial}
        inputMode="url"
        aria-invalid={url.invalid ? true : undefined}
        onChange={(e) => url.change(e.target.value)}
      />
      {url.invalid && (
        <p className="field-error" role="alert">
          {t("widgets.bookmark.invalidUrl")}
        </p>
      )}
      <div className="inline-form-actions">
        <button type="button" className="button ghost small" onClick={onCancel}>
          {t("common.cancel")}
        </button>
        <button type="submit" className="button primary small">
          {initial ? t("common.save") : t("common.add")}
        </button>
      </div>
    </form>
  );
}

function BookmarkLink({
  bookmark,
  status,
  onKeyDown,
}: {
  bookmark: Bookmark;
  /** Its dot, when it shows one and the answer has it. */
  status?: LinkStatusResult;
  /** Alt+↑/↓ reorders, so moving a bookmark needs no stop of its own. */
  onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void;
}) {
  return (
    <a
      href={bookmark.url}
      target="_blank"
      rel="noopener noreferrer"
      className="bookmark-link"
      title={bookmark.url}
      draggable={false}
      onKeyDown={onKeyDown}
      aria-keyshortcuts={onKeyDown ? "Alt+ArrowUp Alt+ArrowDown" : undefined}
    >
      <span className="bookmark-visual">
        <BookmarkIcon bookmark={bookmark} />
        {status && <StatusDot status={status} />}
      </span>
      <span className="bookmark-text">
        <span className="bookmark-title">{bookmark.title}</span>
        <span className="bookmark-host">{hostname(bookmark.url)}</span>
      </span>
      {status && <StatusWords status={status} />}
    </a>
  );
}

/** A visitor's view: the links, nothing to change. */
function BookmarkList({ widget, config }: WidgetProps<BookmarkConfig>) {
  const { t } = useTranslation();
  const statuses = useLinkStatuses(widget, config);
  const bookmarks = config.bookmarks;
  if (bookmarks.length === 0) return <WidgetEmpty text={t("widgets.bookmark.none")} />;
  return (
    <ul className="bookmark-list bookmarks">
      {bookmarks.map((bookmark) => (
        <li key={bookmark.id} className="bookmark-row">
          <BookmarkLink bookmark={bookmark} status={statuses.get(bookmark.id)} />
        </li>
      ))}
    </ul>
  );
}

function BookmarkEditor({ widget, config, update }: WidgetProps<BookmarkConfig>) {
  const { t } = useTranslation();
  const statuses = useLinkStatuses(widget, config);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  // One tab stop per bookmark, its link: the row's buttons join the tab order only in Edit layout.
  // Otherwise they stay for the pointer, the keyboard reorders with Alt+↑/↓ on the link, and the
  // settings dialog (one stop for the widget) edits and removes.
  const [layoutEditing] = useEditLayout();
  const actionTab = layoutEditing ? undefined : -1;
  const list = config.bookmarks;
  const drag = useDragList(list.length, (from, to) =>
    update((c) => ({ bookmarks: moveItem(c.bookmarks, from, to) })),
  );

  return (
    <div className="bookmarks">
      {list.length === 0 && !adding && <WidgetEmpty text={t("widgets.bookmark.empty")} />}
      <ul className="bookmark-list">
        {list.map((bookmark, index) =>
          editing === bookmark.id ? (
            <li key={bookmark.id} className="bookmark-row is-editing">
              <BookmarkForm
                initial={bookmark}
                onCancel={() => setEditing(null)}
                onSubmit={(value) => {
                  update((c) => ({
                    bookmarks: c.bookmarks.map((b) => (b.id === bookmark.id ? { ...b, ...value } : b)),
                  }));
                  setEditing(null);
                }}
              />
            </li>
          ) : (
            <li
              key={bookmark.id}
              className={`bookmark-row ${drag.indicator(index)}`}
              {...drag.itemProps(index)}
            >
              <BookmarkLink
                bookmark={bookmark}
                status={statuses.get(bookmark.id)}
                onKeyDown={drag.handleKeyDown(index)}
              />
              <div className={layoutEditing ? "row-actions" : "row-actions is-pointer-only"}>
                <IconButton
                  icon="grip"
                  size={14}
                  className="small drag-handle"
                  data-role="handle"
                  tabIndex={actionTab}
                  label={t("widgets.bookmark.reorder", { title: bookmark.title })}
                  onKeyDown={drag.handleKeyDown(index)}
                />
                <IconButton
                  icon="pencil"
                  size={14}
                  className="small"
                  tabIndex={actionTab}
                  label={t("widgets.bookmark.edit", { title: bookmark.title })}
                  onClick={() => setEditing(bookmark.id)}
                />
                <IconButton
                  icon="trash"
                  size={14}
                  className="small danger"
                  tabIndex={actionTab}
                  label={t("widgets.bookmark.remove", { title: bookmark.title })}
                  onClick={() =>
                    update((c) => ({ bookmarks: c.bookmarks.filter((b) => b.id !== bookmark.id) }))
                  }
                />
              </div>
            </li>
          ),
        )}
      </ul>
      {adding ? (
        <BookmarkForm
          onCancel={() => setAdding(false)}
          onSubmit={(value) => {
            update((c) => ({ bookmarks: [...c.bookmarks, { id: newId(), ...value }] }));
            setAdding(false);
          }}
        />
      ) : (
        <button type="button" className="button ghost small add-row" onClick={() => setAdding(true)}>
          <Icon name="plus" size={14} /> {t("widgets.bookmark.add")}
        </button>
      )}
    </div>
  );
}

function BookmarkPreview() {
  const { t } = useTranslation();
  const labels = [
    t("widgets.bookmark.preview.docs"),
    t("widgets.bookmark.preview.calendar"),
    t("widgets.bookmark.preview.statusPage"),
  ];
  return (
    <PreviewList
      rows={labels.map((label, i) => ({
        text: label,
        mark: <span className="preview-dot" style={{ background: `hsl(${i * 110 + 200} 55% 50%)` }} />,
      }))}
    />
  );
}

export default defineWidget(contract, {
  group: "content",
  findables: (config) =>
    config.bookmarks.map((b) => ({
      kind: "bookmark",
      itemId: b.id,
      label: b.title,
      detail: hostname(b.url),
      text: b.url,
    })),
  words: (t) => ({ name: t("widgets.bookmark.name"), description: t("widgets.bookmark.description") }),
  keywords: ["links", "favorites", "sites", "urls"],
  icon: "bookmark",
  defaultSize: { columns: 5, rows: 15 },
  minSize: { columns: 3, rows: 8 },
  Component: withReadOnlyView(BookmarkEditor, BookmarkList),
  settings: [BookmarkSettings],
  Preview: BookmarkPreview,
});
