import { useQueries } from "@tanstack/react-query";
import { type KeyboardEvent, useEffect, useId, useMemo, useState } from "react";
import { useMatch, useNavigate } from "react-router";
import { api } from "../lib/api";
import { useEditLayout } from "../lib/edit-mode";
import { useIsAdmin } from "../lib/operators-queries";
import { keys, sortDashboards, useDashboards } from "../lib/queries";
import { Dialog } from "../ui/Dialog";
import { Icon } from "../ui/icons";
import { WIDGETS } from "../widgets/registry";
import { type Command, findables, matchCommands, useDashboardCommands } from "./commands";
import { SETTINGS_TABS, type SettingsTab, useSettingsRoute } from "./settings-route";

const TAB_LABELS: Record<SettingsTab, string> = {
  general: "General",
  reminders: "Reminders",
  profile: "Profile",
  connections: "Connections",
  keys: "API keys",
  sessions: "Sessions",
};

const TAB_KEYWORDS: Partial<Record<SettingsTab, string>> = {
  keys: "token tokens api key script integration bearer",
  sessions: "devices signed in sign out browsers",
};

const MAX_RESULTS = 60;

/** Is the key press meant for a text field (where "/" and "?" are just characters)? */
export function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element?.closest?.("input, textarea, select, [contenteditable='true']");
}

/**
 * Ctrl+K (⌘K on a Mac) or "/" opens the palette, "?" the list of shortcuts, from anywhere in
 * the signed-in app.
 */
export function usePaletteShortcuts(openPalette: () => void, openShortcuts: () => void) {
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey) return;
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") {
        event.preventDefault();
        openPalette();
        return;
      }
      if (event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      if (document.querySelector("dialog[open]")) return;
      if (event.key === "/") {
        event.preventDefault();
        openPalette();
      } else if (event.key === "?") {
        event.preventDefault();
        openShortcuts();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [openPalette, openShortcuts]);
}

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
  const navigate = useNavigate();
  const match = useMatch("/d/:dashboardId");
  const dashboards = sortDashboards(useDashboards().data);
  const settings = useSettingsRoute();
  const isAdmin = useIsAdmin();
  const [editing, setEditing] = useEditLayout();
  const dashboardCommands = useDashboardCommands();
  const found = useFindables(true);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const listId = useId();

  const commands = useMemo<Command[]>(() => {
    const list: Command[] = [];
    const done = (run: () => void) => () => {
      onClose();
      run();
    };
    for (const d of dashboards)
      list.push({
        id: `dashboard-${d.id}`,
        group: "Dashboards",
        label: d.name,
        detail: d.id === match?.params.dashboardId ? "open now" : undefined,
        keywords: "switch go to dashboard",
        run: done(() => navigate(`/d/${d.id}`)),
      });
    if (match) {
      for (const w of WIDGETS)
        list.push({
          id: `add-${w.type}`,
          group: "Add a widget",
          label: `Add ${w.name}`,
          keywords: `new widget ${w.keywords.join(" ")}`,
          run: done(() => dashboardCommands.current?.addWidget(w.type)),
        });
      list.push({
        id: "edit-layout",
        group: "Layout",
        label: editing ? "Lock the layout" : "Edit layout",
        keywords: "move resize arrange lock unlock",
        run: done(() => setEditing(!editing)),
      });
    }
    for (const tab of SETTINGS_TABS)
      list.push({
        id: `settings-${tab}`,
        group: "Settings",
        label: `Settings: ${TAB_LABELS[tab]}`,
        keywords: `preferences options ${TAB_KEYWORDS[tab] ?? ""}`,
        run: done(() => settings.open(tab)),
      });
    if (isAdmin)
      list.push({
        id: "admin",
        group: "Settings",
        label: "Administration",
        keywords: "admin users invites invite members roles sign-up",
        run: done(() => navigate("/admin")),
      });
    list.push({
      id: "shortcuts",
      group: "Help",
      label: "Keyboard shortcuts",
      keywords: "keys help",
      run: done(onShortcuts),
    });
    for (const f of found) {
      if (f.kind === "bookmark")
        list.push({
          id: `bookmark-${f.widgetId}-${f.itemId}`,
          group: "Bookmarks",
          label: f.label,
          detail: f.detail,
          keywords: `bookmark link ${f.text}`,
          run: done(() => window.open(f.text, "_blank", "noopener,noreferrer")),
        });
      else
        list.push({
          id: `note-${f.widgetId}-${f.itemId}`,
          group: "Notes",
          label: f.label,
          detail: f.dashboardName,
          keywords: `note ${f.text}`,
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
  ]);

  const results = useMemo(() => {
    const matched = matchCommands(commands, query);
    // Without a query the long lists (bookmarks, notes) wait to be searched for.
    return (
      query.trim() ? matched : matched.filter((c) => c.group !== "Bookmarks" && c.group !== "Notes")
    ).slice(0, MAX_RESULTS);
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

  return (
    <Dialog open onClose={onClose} size="md" title="Go to…" className="palette">
      <div className="palette-search">
        <Icon name="search" size={16} />
        <input
          role="combobox"
          aria-label="Search commands, dashboards, bookmarks and notes"
          aria-expanded="true"
          aria-controls={listId}
          aria-activedescendant={results.length ? optionId(current) : undefined}
          aria-autocomplete="list"
          placeholder="Dashboards, widgets, settings, bookmarks, notes…"
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
        {`${results.length} result${results.length === 1 ? "" : "s"}`}
      </div>
      <div className="palette-list" id={listId} role="listbox" aria-label="Results">
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
      {results.length === 0 && <p className="palette-none">Nothing matches “{query}”.</p>}
    </Dialog>
  );
}

const SHORTCUTS: [keys: string[], what: string][] = [
  [["Ctrl K", "⌘ K", "/"], "Open the command palette: dashboards, widgets, settings, bookmarks, notes"],
  [["?"], "Show these shortcuts"],
  [["Ctrl Z"], "Undo the last change to the dashboard"],
  [["↑ ↓ ← →"], "With a widget's handle focused in Edit layout: move it one column or row"],
  [["Shift ↑ ↓ ← →"], "With a widget's handle focused in Edit layout: resize it"],
  [["Esc"], "Cancel a drag, close a dialog"],
  [["↑ ↓"], "On a bookmark's or todo's handle: reorder it"],
  [["Alt ↑ ↓ ← →"], "On a Kanban card: move it within or across columns"],
];

export function ShortcutSheet({ onClose }: { onClose(): void }) {
  return (
    <Dialog open onClose={onClose} size="md" title="Keyboard shortcuts">
      <dl className="shortcut-list">
        {SHORTCUTS.map(([combos, what]) => (
          <div key={what} className="shortcut-row">
            <dt>
              {combos.map((combo, i) => (
                <span key={combo}>
                  {i > 0 && <span className="muted"> or </span>}
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
