import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { iconSlug } from "../../../contract/icons";
import { hostname } from "../../../contract/widget-kit/fields";
import { newId } from "../../../web/lib/ids";
import { normaliseUserUrl } from "../../../web/lib/parse";
import { moveItem, useDragList } from "../../../web/lib/reorder";
import { Icon } from "../../../web/ui/icons";
import { useDataSource } from "../../../web/widget-kit/data/source";
import { defineWidget, type WidgetProps } from "../../../web/widget-kit/types";
import { type Bookmark, type BookmarkConfig, bookmarkWidget as contract } from "../contract";
import { BundledIconTile } from "./BundledIcon";
import { faviconUrl, initialOf } from "./logic";
import { BookmarkSettings } from "./Settings";

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
  const [url, setUrl] = useState(initial?.url ?? "");
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const normalised = normaliseUserUrl(url);
    if (!normalised) {
      setError(t("widgets.bookmark.invalidUrl"));
      return;
    }
    onSubmit({ title: title.trim() || hostname(normalised), url: normalised });
  };
  return (
    <form className="inline-form" onSubmit={submit} onKeyDown={(e) => e.key === "Escape" && onCancel()}>
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
        value={url}
        // biome-ignore lint/a11y/noAutofocus: the form opens on request; typing goes straight in.
        autoFocus={!initial}
        inputMode="url"
        aria-invalid={error ? true : undefined}
        onChange={(e) => {
          setUrl(e.target.value);
          setError(null);
        }}
      />
      {error && (
        <p className="field-error" role="alert">
          {error}
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

function BookmarkLink({ bookmark }: { bookmark: Bookmark }) {
  return (
    <a
      href={bookmark.url}
      target="_blank"
      rel="noopener noreferrer"
      className="bookmark-link"
      title={bookmark.url}
      draggable={false}
    >
      <BookmarkIcon bookmark={bookmark} />
      <span className="bookmark-text">
        <span className="bookmark-title">{bookmark.title}</span>
        <span className="bookmark-host">{hostname(bookmark.url)}</span>
      </span>
    </a>
  );
}

/** A visitor's view: the links, nothing to change. */
function BookmarkList({ bookmarks }: { bookmarks: Bookmark[] }) {
  const { t } = useTranslation();
  if (bookmarks.length === 0)
    return (
      <div className="widget-empty">
        <p>{t("widgets.bookmark.none")}</p>
      </div>
    );
  return (
    <ul className="bookmark-list bookmarks">
      {bookmarks.map((bookmark) => (
        <li key={bookmark.id} className="bookmark-row">
          <BookmarkLink bookmark={bookmark} />
        </li>
      ))}
    </ul>
  );
}

function BookmarkWidget({ config, update, readOnly }: WidgetProps<BookmarkConfig>) {
  if (readOnly) return <BookmarkList bookmarks={config.bookmarks} />;
  return <BookmarkEditor config={config} update={update} />;
}

function BookmarkEditor({ config, update }: Pick<WidgetProps<BookmarkConfig>, "config" | "update">) {
  const { t } = useTranslation();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const list = config.bookmarks;
  const drag = useDragList(list.length, (from, to) =>
    update((c) => ({ bookmarks: moveItem(c.bookmarks, from, to) })),
  );

  return (
    <div className="bookmarks">
      {list.length === 0 && !adding && (
        <div className="widget-empty">
          <p>{t("widgets.bookmark.empty")}</p>
        </div>
      )}
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
              <BookmarkLink bookmark={bookmark} />
              <div className="row-actions">
                <button
                  type="button"
                  className="icon-button small drag-handle"
                  data-role="handle"
                  aria-label={t("widgets.bookmark.reorder", { title: bookmark.title })}
                  onKeyDown={drag.handleKeyDown(index)}
                >
                  <Icon name="grip" size={14} />
                </button>
                <button
                  type="button"
                  className="icon-button small"
                  aria-label={t("widgets.bookmark.edit", { title: bookmark.title })}
                  onClick={() => setEditing(bookmark.id)}
                >
                  <Icon name="pencil" size={14} />
                </button>
                <button
                  type="button"
                  className="icon-button small danger"
                  aria-label={t("widgets.bookmark.remove", { title: bookmark.title })}
                  onClick={() =>
                    update((c) => ({ bookmarks: c.bookmarks.filter((b) => b.id !== bookmark.id) }))
                  }
                >
                  <Icon name="trash" size={14} />
                </button>
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
  return (
    <div className="preview preview-list">
      {[
        t("widgets.bookmark.preview.docs"),
        t("widgets.bookmark.preview.calendar"),
        t("widgets.bookmark.preview.statusPage"),
      ].map((label, i) => (
        <div key={label} className="preview-row">
          <span className="preview-dot" style={{ background: `hsl(${i * 110 + 200} 55% 50%)` }} />
          {label}
        </div>
      ))}
    </div>
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
  name: "Bookmarks",
  description: "Links to the sites you use most, with their icons. Drag to reorder.",
  keywords: ["links", "favorites", "sites", "urls"],
  icon: "bookmark",
  defaultSize: { columns: 5, rows: 15 },
  minSize: { columns: 3, rows: 8 },
  Component: BookmarkWidget,
  settings: [BookmarkSettings],
  Preview: BookmarkPreview,
});
