import { useState } from "react";
import { type CodehostConfig, codehostWidget as contract } from "../../../contract/widgets/codehost";
import { dataApi, dataKeys, type WorkItem } from "../../lib/data-api";
import { useNow } from "../../lib/use-now";
import { Icon } from "../../ui/icons";
import { DataFrame } from "../data/DataFrame";
import { readableOn, relativeTime } from "../data/format";
import { ProviderGate } from "../data/ProviderGate";
import { useWidgetData } from "../data/useWidgetData";
import { defineWidget, type WidgetProps } from "../types";
import { type CodehostTab, filterItems, itemLabels } from "./logic";
import { RepositorySettings } from "./Settings";

const TABS: { id: CodehostTab; label: string }[] = [
  { id: "issues", label: "Issues" },
  { id: "pulls", label: "Pull requests" },
];

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
          <span>updated {relativeTime(Date.parse(item.updatedAt), now)}</span>
          {item.comments > 0 && (
            <span title={`${item.comments} comments`}>
              <Icon name="message" size={11} /> {item.comments}
            </span>
          )}
          {item.draft && <span className="draft-badge">Draft</span>}
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
        <div className="tabs compact" role="tablist" aria-label="Show">
          {TABS.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              aria-selected={config.tab === t.id}
              className={`tab${config.tab === t.id ? " is-selected" : ""}`}
              onClick={() => {
                setLabel(null);
                update((c) => ({ ...c, tab: t.id }));
              }}
            >
              {t.label}
              {config.tab === t.id && query.data && (
                <span className="tab-count">{query.data.totalCount}</span>
              )}
            </button>
          ))}
        </div>
        <div className="search-input compact">
          <Icon name="search" size={14} />
          <input
            type="search"
            aria-label={`Filter ${config.tab === "pulls" ? "pull requests" : "issues"}`}
            placeholder="Filter"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
      </div>
      <DataFrame
        query={query}
        upstream="codehost"
        label={config.tab === "pulls" ? "pull requests" : "issues"}
      >
        {(page) => {
          const labels = itemLabels(page.items);
          const shown = filterItems(page.items, search, label);
          return (
            <>
              {labels.length > 0 && (
                <fieldset className="label-filter">
                  <legend className="visually-hidden">Filter by label</legend>
                  {labels.slice(0, 8).map((l) => (
                    <button
                      key={l.name}
                      type="button"
                      className="label-toggle"
                      aria-pressed={label === l.name}
                      onClick={() => setLabel((current) => (current === l.name ? null : l.name))}
                    >
                      <LabelChip name={l.name} color={l.color} /> {l.count}
                    </button>
                  ))}
                </fieldset>
              )}
              {shown.length === 0 ? (
                <div className="widget-empty">
                  <p>
                    {page.items.length === 0
                      ? `No open ${config.tab === "pulls" ? "pull requests" : "issues"} assigned to you or opened by you.`
                      : "Nothing matches the filter."}
                  </p>
                </div>
              ) : (
                <ul className="work-list">
                  {shown.map((item) => (
                    <ItemRow key={item.id} item={item} now={now} />
                  ))}
                </ul>
              )}
              {page.hasMore && (
                <p className="work-more muted">
                  Showing {page.items.length} of {page.totalCount}.{" "}
                  <a
                    href={`https://github.com/${config.tab === "pulls" ? "pulls" : "issues"}`}
                    target="_blank"
                    rel="noopener noreferrer"
                  >
                    See all on GitHub
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

function CodehostWidget({ config, update }: WidgetProps<CodehostConfig>) {
  return (
    <ProviderGate provider="codehost" purpose="to see your open issues and pull requests">
      <WorkItems config={config} update={update} />
    </ProviderGate>
  );
}

function CodehostPreview() {
  return (
    <div className="preview preview-list">
      {["Fix login redirect", "Add dark mode", "Bump dependencies"].map((t, i) => (
        <div key={t} className="preview-row">
          <Icon name={i === 1 ? "gitPull" : "issue"} size={11} />
          {t}
        </div>
      ))}
    </div>
  );
}

export const codehostWidget = defineWidget(contract, {
  name: "GitHub",
  description: "Open issues and pull requests assigned to you or opened by you. Needs GitHub.",
  keywords: ["github", "issues", "pull requests", "code", "review", "developer"],
  icon: "gitPull",
  defaultSize: { columns: 7, rows: 20 },
  setupSize: { columns: 5, rows: 12 },
  minSize: { columns: 4, rows: 10 },
  Component: CodehostWidget,
  settings: [
    {
      key: "tab",
      label: "Open on",
      options: TABS.map((tab) => [tab.id, tab.label] as const),
    },
    RepositorySettings,
  ],
  Preview: CodehostPreview,
});
