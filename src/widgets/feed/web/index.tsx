import { useTranslation } from "react-i18next";
import { t } from "../../../web/i18n/i18n";
import { useLocale } from "../../../web/i18n/use-locale";
import { newId } from "../../../web/lib/ids";
import { useNow } from "../../../web/lib/use-now";
import { Icon } from "../../../web/ui/icons";
import { DataFrame } from "../../../web/widget-kit/data/DataFrame";
import { relativeTime } from "../../../web/widget-kit/data/format";
import { feedsRequest, useDataSource } from "../../../web/widget-kit/data/source";
import { useWidgetData } from "../../../web/widget-kit/data/useWidgetData";
import { useAddressDraft } from "../../../web/widget-kit/settings/AddressInput";
import { defineWidget, type WidgetProps } from "../../../web/widget-kit/types";
import { WidgetEmpty } from "../../../web/widget-kit/WidgetEmpty";
import { feedWidget as contract, type FeedConfig } from "../contract";
import { describeFailures, type Entry, mergeFeeds } from "./logic";
import { FeedSettings } from "./Settings";

function EntryRow({ entry, now }: { entry: Entry; now: number }) {
  const locale = useLocale();
  const when = entry.publishedAt ? Date.parse(entry.publishedAt) : null;
  const title = entry.url ? (
    <a href={entry.url} target="_blank" rel="noopener noreferrer">
      {entry.title}
    </a>
  ) : (
    entry.title
  );
  return (
    <li className="feed-entry">
      <span className="feed-title">{title}</span>
      <span className="feed-meta">
        {entry.source}
        {when !== null && (
          <>
            {" · "}
            <time
              dateTime={entry.publishedAt!}
              title={new Intl.DateTimeFormat(locale, EXACT_TIME).format(when)}
            >
              {relativeTime(when, now)}
            </time>
          </>
        )}
      </span>
      {entry.summary && <span className="feed-summary">{entry.summary}</span>}
    </li>
  );
}

/** The first feed, typed straight into the empty widget. */
function FirstFeed({ onAdd }: { onAdd(url: string): void }) {
  const { t } = useTranslation();
  const draft = useAddressDraft("", onAdd);
  return (
    <form className="feed-setup" onSubmit={draft.submit}>
      <label htmlFor="feed-first-url">
        <Icon name="rss" size={15} /> {t("widgets.feed.question")}
      </label>
      <div className="feed-setup-row">
        <input
          id="feed-first-url"
          className="feed-setup-input"
          placeholder="example.com/feed.xml"
          inputMode="url"
          value={draft.text}
          aria-invalid={draft.invalid ? true : undefined}
          onChange={(e) => draft.change(e.target.value)}
        />
        <button type="submit" className="button primary small">
          {t("widgets.feed.follow")}
        </button>
      </div>
      {draft.invalid && <p className="field-error">{t("widgets.feed.invalid")}</p>}
    </form>
  );
}

function FeedWidget({ widget, config, update, readOnly }: WidgetProps<FeedConfig>) {
  const { t } = useTranslation();
  const source = useDataSource();
  const urls = config.feeds.map((f) => f.url);
  const now = useNow(60_000).getTime();
  const query = useWidgetData({
    ...feedsRequest(source, widget.id, urls),
    refreshMs: 15 * 60_000,
    enabled: urls.length > 0,
  });
  if (urls.length === 0) {
    if (readOnly) return <WidgetEmpty text={t("widgets.feed.none")} />;
    return <FirstFeed onAdd={(url) => update((c) => ({ ...c, feeds: [{ id: newId(), url }] }))} />;
  }
  return (
    <DataFrame query={query} upstream="feed" label={t("widgets.feed.data")} readOnly={readOnly}>
      {(results) => {
        const { entries, failures } = mergeFeeds(results, config.limit);
        return (
          <div className="feed">
            {failures.length > 0 && (
              <p className="feed-failures" role="status">
                <Icon name="alert" size={13} /> {describeFailures(failures)}
              </p>
            )}
            {entries.length === 0 ? (
              <p className="widget-empty">{t("widgets.feed.nothingNew")}</p>
            ) : (
              <ul className="feed-entries">
                {entries.map((entry) => (
                  <EntryRow key={`${entry.source}|${entry.id}`} entry={entry} now={now} />
                ))}
              </ul>
            )}
          </div>
        );
      }}
    </DataFrame>
  );
}

function FeedPreview() {
  const { t } = useTranslation();
  return (
    <div className="preview preview-feed">
      <Icon name="rss" size={22} />
      <span>{t("widgets.feed.preview.release")}</span>
      <span>{t("widgets.feed.preview.digest")}</span>
    </div>
  );
}

const EXACT_TIME: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };

export default defineWidget(contract, {
  group: "data",
  words: (t) => ({ name: t("widgets.feed.name"), description: t("widgets.feed.description") }),
  keywords: ["rss", "atom", "news", "blog", "reader", "releases"],
  icon: "rss",
  defaultSize: { columns: 6, rows: 18 },
  minSize: { columns: 4, rows: 8 },
  Component: FeedWidget,
  settings: [
    FeedSettings,
    // A getter: the form reads its words when it renders, in the language of that moment.
    {
      key: "limit",
      get label() {
        return t("widgets.feed.entriesShown");
      },
    },
  ],
  Preview: FeedPreview,
});
