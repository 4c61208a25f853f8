import { useState } from "react";
import { useTranslation } from "react-i18next";
import { t } from "../../../web/i18n/i18n";
import { useLocale } from "../../../web/i18n/use-locale";
import { dataApi, dataKeys, type WorkItem } from "../../../web/lib/data-api";
import { useNow } from "../../../web/lib/use-now";
import { Icon } from "../../../web/ui/icons";
import { DataFrame } from "../../../web/widget-kit/data/DataFrame";
import { readableOn, relativeTime } from "../../../web/widget-kit/data/format";
import { gatedWidget } from "../../../web/widget-kit/data/ProviderGate";
import { useWidgetData } from "../../../web/widget-kit/data/useWidgetData";
import { PreviewList } from "../../../web/widget-kit/PreviewList";
import { SearchInput } from "../../../web/widget-kit/SearchInput";
import { defineWidget, type WidgetProps } from "../../../web/widget-kit/types";
import { WidgetEmpty } from "../../../web/widget-kit/WidgetEmpty";
import { type CodehostConfig, codehostWidget as contract } from "../contract";
import { type CodehostTab, filterItems, itemLabels } from "./logic";
import { RepositorySettings } from "./Settings";

const TABS: readonly CodehostTab[] = ["issues", "pulls"];

/** A tab's words, in the language of the moment. */
function tabLabel(tab: CodehostTab): string {
  return tab === "pulls" ? t("widgets.codehost.tabs.pulls") : t("widgets.codehost.tabs.issues");
}

function LabelChip({ name, color }: { name: string; color: string | null }) {
  const background = color ? `#${color.replace(/^#/, "")}` : undefined;
  return (
    <span
      className="label-chip"
      style={background ? { background, color: readableOn(background), borderColor: background } : undefined}
    >
      {name}
    </span>
  );
}

function ItemRow({ item, now }: { item: WorkItem; now: number }) {
  const { t } = useTranslation();
  return (
    <li className="work-item">
      <Icon name={item.isPullRequest ? "gitPull" : "issue"} size={15} className="work-item-icon" />
      <div className="work-item-text">
        <a href={item.url} target="_blank" rel="noopener noreferrer" className="work-item-title">
          {item.title}
        </a>
        <div className="work-item-meta">
          <span>
            {item.repository}#{item.number}
          </span>
          <span>
            {t("widgets.codehost.updated", { when: relativeTime(Date.parse(item.updatedAt), now) })}
          </span>
          {item.comments > 0 && (
            <span title={t("widgets.codehost.comments", { count: item.comments })}>
              <Icon name="message" size={11} /> {item.comments}
            </span>
          )}
          {item.draft && <span className="draft-badge">{t("widgets.codehost.draft")}</span>}
        </div>
        {item.labels.length > 0 && (
          <div className="label-row">
            {item.labels.map((l) => (
              <LabelChip key={l.name} name={l.name} color={l.color} />
            ))}
          </div>
        )}
      </div>
    </li>
  );
}

function WorkItems({ config, update }: Pick<WidgetProps<CodehostConfig>, "config" | "update">) {
  const { t } = useTranslation();
  const locale = useLocale();
  const count = (n: number) => new Intl.NumberFormat(locale).format(n);
  const [search, setSearch] = useState("");
  const [label, setLabel] = useState<string | null>(null);
  const now = useNow(60_000).getTime();
  const type = config.tab === "pulls" ? "pr" : "issue";
  const query = useWidgetData({
    queryKey: [...dataKeys.provider("codehost"), "items", type, config.repos.join(",")],
    queryFn: () => dataApi.codehost.items(type, config.repos),
    refreshMs: 5 * 60_000,
  });
  return (
    <div className="codehost">
      <div className="codehost-toolbar">
        <div className="tabs compact" role="tablist" aria-label={t("widgets.codehost.show")}>
          {TABS.map((tab) => (
            <button
              key={tab}
              type="button"
              role="tab"
              aria-selected={config.tab === tab}
              className={`tab${config.tab === tab ? " is-selected" : ""}`}
              onClick={() => {
                setLabel(null);
                update((c) => ({ ...c, tab }));
              }}
            >
              {tabLabel(tab)}
              {config.tab === tab && query.data && (
                <span className="tab-count">{count(query.data.totalCount)}</span>
              )}
            </button>
          ))}
        </div>
        <SearchInput
          compact
          aria-label={
            config.tab === "pulls" ? t("widgets.codehost.filterPulls") : t("widgets.codehost.filterIssues")
          }
          placeholder={t("widgets.codehost.filter")}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      <DataFrame
        query={query}
        upstream="codehost"
        label={config.tab === "pulls" ? t("widgets.codehost.pulls") : t("widgets.codehost.issues")}
      >
        {(page) => {
          const labels = itemLabels(page.items);
          const shown = filterItems(page.items, search, label);
          return (
            <>
              {labels.length > 0 && (
                <fieldset className="label-filter">
                  <legend className="visually-hidden">{t("widgets.codehost.filterByLabel")}</legend>
                  {labels.slice(0, 8).map((l) => (
                    <button
                      key={l.name}
                      type="button"
                      className="label-toggle"
                      aria-pressed={label === l.name}
                      onClick={() => setLabel((current) => (current === l.name ? null : l.name))}
                    >
                      <LabelChip name={l.name} color={l.color} /> {count(l.count)}
                    </button>
                  ))}
                </fieldset>
              )}
              {shown.length === 0 ? (
                <WidgetEmpty
                  text={
                    page.items.length === 0
                      ? config.tab === "pulls"
                        ? t("widgets.codehost.noPulls")
                        : t("widgets.codehost.noIssues")
                      : t("widgets.codehost.noMatch")
                  }
                />
              ) : (
                <ul className="work-list">
                  {shown.map((item) => (
                    <ItemRow key={item.id} item={item} now={now} />
                  ))}
                </ul>
              )}
              {page.hasMore && (
                <p className="work-more muted">
                  {t("widgets.codehost.showing", {
                    shown: count(page.items.length),
                    total: count(page.totalCount),
                  })}{" "}
                  <a
                    href={`https://github.com/${config.tab === "pulls" ? "pulls" : "issues"}`}
                    target="_blank"
                    rel="noopener noreferrer"
                  >
                    {t("widgets.codehost.seeAll")}
                  </a>
                </p>
              )}
            </>
          );
        }}
      </DataFrame>
    </div>
  );
}

function CodehostPreview() {
  const { t } = useTranslation();
  const titles = [
    t("widgets.codehost.preview.login"),
    t("widgets.codehost.preview.darkMode"),
    t("widgets.codehost.preview.bump"),
  ];
  return (
    <PreviewList
      rows={titles.map((title, i) => ({
        text: title,
        mark: <Icon name={i === 1 ? "gitPull" : "issue"} size={11} />,
      }))}
    />
  );
}

export default defineWidget(contract, {
  group: "account",
  words: (t) => ({ name: t("widgets.codehost.name"), description: t("widgets.codehost.description") }),
  keywords: ["github", "issues", "pull requests", "code", "review", "developer"],
  icon: "gitPull",
  defaultSize: { columns: 7, rows: 20 },
  setupSize: { columns: 5, rows: 12 },
  minSize: { columns: 4, rows: 10 },
  Component: gatedWidget("codehost", (t) => t("widgets.codehost.purpose"), WorkItems),
  settings: [
    // Getters: the form reads its words when it renders, in the language of that moment.
    {
      key: "tab",
      get label() {
        return t("widgets.codehost.tab");
      },
      get options() {
        return TABS.map((tab) => [tab, tabLabel(tab)] as const);
      },
    },
    RepositorySettings,
  ],
  Preview: CodehostPreview,
});
