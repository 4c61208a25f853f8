import { useQueries } from "@tanstack/react-query";
import { type KeyboardEvent, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useMatch, useNavigate } from "react-router";
import { api } from "../lib/api";
import { useEditLayout } from "../lib/edit-mode";
import { useIsAdmin } from "../lib/operators-queries";
import { keys, sortDashboards, useAppSettings, useDashboards, useUpdateSettings } from "../lib/queries";
import { Dialog } from "../ui/Dialog";
import { Icon } from "../ui/icons";
import { WIDGETS } from "../widget-kit/registry";
import { appCommands, type Command, findables, matchCommands, useDashboardCommands } from "./commands";
import { canEditDashboard } from "./dashboard-access";
import { DashboardNameDialog } from "./dashboards";
import { SETTINGS_TABS, type SettingsTab, useSettingsRoute } from "./settings-route";
import { useSettingsTabLabels } from "./settings-tabs";
import { useSignOut } from "./use-sign-out";
import { widgetName } from "./widget-name";

const MAX_RESULTS = 60;

/** Bookmarks and notes of every dashboard, read when the palette opens. */
function useFindables(enabled: boolean) {
  const dashboards = sortDashboards(useDashboards().data);
  const results = useQueries({
    queries: dashboards.map((d) => ({
      queryKey: keys.widgets(d.id),
      queryFn: () => api.widgets.list(d.id),
      enabled,
      // The cache carries unsaved edits; it is only read here, never refetched over them.
      staleTime: Number.POSITIVE_INFINITY,
    })),
  });
  return useMemo(
    () =>
      dashboards.flatMap((d, i) =>
        findables(d.id, results[i]?.data ?? []).map((f) => ({ ...f, dashboardName: d.name })),
      ),
    [dashboards, results],
  );
}

export function CommandPalette({ onClose, onShortcuts }: { onClose(): void; onShortcuts(): void }) {
  const { t } = useTranslation();
  const tabLabels = useSettingsTabLabels();
  const navigate = useNavigate();
  const match = useMatch("/d/:dashboardId");
  const dashboards = sortDashboards(useDashboards().data);
  const settings = useSettingsRoute();
  const isAdmin = useIsAdmin();
  const [editing, setEditing] = useEditLayout();
  const dashboardCommands = useDashboardCommands();
  const found = useFindables(true);
  const { theme } = useAppSettings();
  const { updateConfig } = useUpdateSettings();
  const signOut = useSignOut();
  // The palette turns into the naming dialog, so it is not left open behind it.
  const [naming, setNaming] = useState(false);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const listId = useId();

  const commands = useMemo<Command[]>(() => {
    const tabKeywords: Partial<Record<SettingsTab, string>> = {
      keys: t("palette.keywords.keys"),
      sessions: t("palette.keywords.sessions"),
    };
    const list: Command[] = [];
    const done = (run: () => void) => () => {
      onClose();
      run();
    };
    for (const d of dashboards)
      list.push({
        id: `dashboard-${d.id}`,
        group: t("palette.groups.dashboards"),
        label: d.name,
        detail: d.id === match?.params.dashboardId ? t("palette.openNow") : d.owner?.name,
        keywords: t("palette.keywords.dashboard"),
        run: done(() => navigate(`/d/${d.id}`)),
      });
    const [newDashboard, ...rest] = appCommands(t, theme, {
      newDashboard: () => setNaming(true),
      setTheme: (next) => updateConfig({ theme: next }),
      signOut: () => void signOut(),
    });
    list.push(newDashboard!);
    const open = dashboards.find((d) => d.id === match?.params.dashboardId);
    // A viewer's dashboard takes no widgets and has no layout to edit.
    if (match && (!open || canEditDashboard(open))) {
      for (const w of WIDGETS)
        list.push({
          id: `add-${w.type}`,
          group: t("palette.groups.addWidget"),
          label: t("palette.addWidget", { name: widgetName(w) }),
          keywords: `${t("palette.keywords.widget")} ${w.keywords.join(" ")}`,
          run: done(() => dashboardCommands.current?.addWidget(w.type)),
        });
      list.push({
        id: "edit-layout",
        group: t("palette.groups.layout"),
        label: editing ? t("palette.lockLayout") : t("palette.editLayout"),
        keywords: t("palette.keywords.layout"),
        run: done(() => setEditing(!editing)),
      });
    }
    for (const tab of SETTINGS_TABS)
      list.push({
        id: `settings-${tab}`,
        group: t("palette.groups.settings"),
        label: t("palette.settingsTab", { tab: tabLabels[tab] }),
        keywords: `${t("palette.keywords.settings")} ${tabKeywords[tab] ?? ""}`,
        run: done(() => settings.open(tab)),
      });
    if (isAdmin)
      list.push({
        id: "admin",
        group: t("palette.groups.settings"),
        label: t("palette.admin"),
        keywords: t("palette.keywords.admin"),
        run: done(() => navigate("/admin")),
      });
    for (const command of rest) list.push({ ...command, run: done(command.run) });
    list.push({
      id: "shortcuts",
      group: t("palette.groups.help"),
      label: t("shortcuts.title"),
      keywords: t("palette.keywords.shortcuts"),
      run: done(onShortcuts),
    });
    for (const f of found) {
      if (f.kind === "bookmark")
        list.push({
          id: `bookmark-${f.widgetId}-${f.itemId}`,
          group: t("palette.groups.bookmarks"),
          label: f.label,
          detail: f.detail,
          keywords: `${t("palette.keywords.bookmark")} ${f.text}`,
          run: done(() => window.open(f.text, "_blank", "noopener,noreferrer")),
        });
      else
        list.push({
          id: `note-${f.widgetId}-${f.itemId}`,
          group: t("palette.groups.notes"),
          label: f.label,
          detail: f.dashboardName,
          keywords: `${t("palette.keywords.note")} ${f.text}`,
          run: done(() =>
            navigate(`/d/${f.dashboardId}`, {
              state: { openNote: { widgetId: f.widgetId, noteId: f.itemId } },
            }),
          ),
        });
    }
    return list;
  }, [
    dashboards,
    match,
    editing,
    setEditing,
    settings,
    isAdmin,
    navigate,
    found,
    onClose,
    onShortcuts,
    dashboardCommands,
    t,
    tabLabels,
    theme,
    updateConfig,
    signOut,
  ]);

  const results = useMemo(() => {
    const matched = matchCommands(commands, query);
    // Without a query the long lists (bookmarks, notes) wait to be searched for.
    return (query.trim() ? matched : matched.filter((c) => !/^(bookmark|note)-/.test(c.id))).slice(
      0,
      MAX_RESULTS,
    );
  }, [commands, query]);
  const current = Math.min(active, Math.max(0, results.length - 1));
  const optionId = (index: number) => `${listId}-option-${index}`;

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const delta = event.key === "ArrowDown" ? 1 : -1;
      const next = (current + delta + results.length) % Math.max(1, results.length);
      setActive(next);
      document.getElementById(optionId(next))?.scrollIntoView({ block: "nearest" });
    } else if (event.key === "Enter") {
      event.preventDefault();
      results[current]?.run();
    }
  };

  if (naming) return <DashboardNameDialog mode="create" onClose={onClose} />;

  return (
    <Dialog open onClose={onClose} size="md" title={t("palette.title")} className="palette">
      <div className="palette-search">
        <Icon name="search" size={16} />
        <input
          role="combobox"
          aria-label={t("palette.searchLabel")}
          aria-expanded="true"
          aria-controls={listId}
          aria-activedescendant={results.length ? optionId(current) : undefined}
          aria-autocomplete="list"
          placeholder={t("palette.placeholder")}
          value={query}
          data-autofocus
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
      </div>
      <div className="visually-hidden" aria-live="polite">
        {t("palette.results", { count: results.length })}
      </div>
      <div className="palette-list" id={listId} role="listbox" aria-label={t("palette.resultsLabel")}>
        {results.map((command, index) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox handles the keys for its options.
          <div
            key={command.id}
            id={optionId(index)}
            role="option"
            tabIndex={-1}
            aria-selected={index === current}
            className={`palette-option${index === current ? " is-active" : ""}`}
            onMouseMove={() => setActive(index)}
            onClick={() => command.run()}
          >
            <span className="palette-group">{command.group}</span>
            <span className="palette-label">{command.label}</span>
            {command.detail && <span className="palette-detail">{command.detail}</span>}
          </div>
        ))}
      </div>
      {results.length === 0 && <p className="palette-none">{t("palette.none", { query })}</p>}
    </Dialog>
  );
}

export function ShortcutSheet({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  // Key names are words too: "Ctrl" is "Strg" on a German keyboard.
  const shortcuts: [id: string, keys: string[], what: string][] = [
    ["palette", [t("shortcuts.keys.ctrlK"), "⌘ K", "/"], t("shortcuts.palette")],
    ["help", ["?"], t("shortcuts.help")],
    ["undo", [t("shortcuts.keys.ctrlZ")], t("shortcuts.undo")],
    ["move", ["↑ ↓ ← →"], t("shortcuts.move")],
    ["resize", [t("shortcuts.keys.shiftArrows")], t("shortcuts.resize")],
    ["escape", [t("shortcuts.keys.esc")], t("shortcuts.escape")],
    ["reorder", ["↑ ↓"], t("shortcuts.reorder")],
    ["bookmark", [t("shortcuts.keys.altUpDown")], t("shortcuts.bookmark")],
    ["kanban", [t("shortcuts.keys.altArrows")], t("shortcuts.kanban")],
  ];
  return (
    <Dialog open onClose={onClose} size="md" title={t("shortcuts.title")}>
      <dl className="shortcut-list">
        {shortcuts.map(([id, combos, what]) => (
          <div key={id} className="shortcut-row">
            <dt>
              {combos.map((combo, i) => (
                <span key={combo}>
                  {i > 0 && <span className="muted"> {t("shortcuts.or")} </span>}
                  <kbd>{combo}</kbd>
                </span>
              ))}
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
