import { type FormEvent, useState } from "react";
import { feedWidget as contract, type FeedConfig } from "../../../contract/widgets/feed";
import { newId } from "../../lib/ids";
import { normaliseUserUrl } from "../../lib/parse";
import { useNow } from "../../lib/use-now";
import { Icon } from "../../ui/icons";
import { DataFrame } from "../data/DataFrame";
import { relativeTime } from "../data/format";
import { feedsRequest, useDataSource } from "../data/source";
import { useWidgetData } from "../data/useWidgetData";
import { defineWidget, type WidgetProps } from "../types";
import { type Entry, mergeFeeds } from "./logic";
import { FeedSettings } from "./Settings";

function EntryRow({ entry, now }: { entry: Entry; now: number }) {
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
            <time dateTime={entry.publishedAt!} title={new Date(when).toLocaleString()}>
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
  const [text, setText] = useState("");
  const [invalid, setInvalid] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const url = normaliseUserUrl(text);
    if (!url) return setInvalid(true);
    onAdd(url);
  };
  return (
    <form className="feed-setup" onSubmit={submit}>
      <label htmlFor="feed-first-url">
        <Icon name="rss" size={15} /> Which feed should this follow?
      </label>
      <div className="feed-setup-row">
        <input
          id="feed-first-url"
          className="feed-setup-input"
          placeholder="example.com/feed.xml"
          inputMode="url"
          value={text}
          aria-invalid={invalid ? true : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setInvalid(false);
          }}
        />
        <button type="submit" className="button primary small">
          Follow
        </button>
      </div>
      {invalid && <p className="field-error">Enter an address like example.com/feed.xml</p>}
    </form>
  );
}

function FeedWidget({ widget, config, update, readOnly }: WidgetProps<FeedConfig>) {
  const source = useDataSource();
  const urls = config.feeds.map((f) => f.url);
  const now = useNow(60_000).getTime();
  const query = useWidgetData({
    ...feedsRequest(source, widget.id, urls),
    refreshMs: 15 * 60_000,
    enabled: urls.length > 0,
  });
  if (urls.length === 0) {
    if (readOnly)
      return (
        <div className="widget-empty">
          <p>No feeds yet.</p>
        </div>
      );
    return <FirstFeed onAdd={(url) => update((c) => ({ ...c, feeds: [{ id: newId(), url }] }))} />;
  }
  return (
    <DataFrame query={query} upstream="feed" label="the feeds" readOnly={readOnly}>
      {(results) => {
        const { entries, failures } = mergeFeeds(results, config.limit);
        return (
          <div className="feed">
            {failures.length > 0 && (
              <p className="feed-failures" role="status">
                <Icon name="alert" size={13} />{" "}
                {failures.length === 1
                  ? `One feed could not be read: ${failures[0]!.detail}`
                  : `${failures.length} feeds could not be read.`}
              </p>
            )}
            {entries.length === 0 ? (
              <p className="widget-empty">Nothing new in these feeds.</p>
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
  return (
    <div className="preview preview-feed">
      <Icon name="rss" size={22} />
      <span>Release notes · 2 h ago</span>
      <span>Weekly digest · 1 day ago</span>
    </div>
  );
}

export const feedWidget = defineWidget(contract, {
  name: "Feed",
  description: "The newest posts of blogs, news sites and release pages, from their RSS or Atom feeds.",
  keywords: ["rss", "atom", "news", "blog", "reader", "releases"],
  icon: "rss",
  defaultSize: { columns: 6, rows: 18 },
  minSize: { columns: 4, rows: 8 },
  Component: FeedWidget,
  settings: [FeedSettings, { key: "limit", label: "Entries shown" }],
  Preview: FeedPreview,
});
