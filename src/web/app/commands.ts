import type { TFunction } from "i18next";
import { createContext, useContext } from "react";
import type { Widget } from "../../contract/resources";
import { THEMES, type Theme } from "../lib/app-settings";
import { definitionFor } from "../widget-kit/registry";
import type { FindableItem } from "../widget-kit/types";

/** One entry of the command palette. */
export interface Command {
  id: string;
  group: string;
  label: string;
  /** Shown after the label, quieter: a host, a dashboard's name. */
  detail?: string;
  /** More words it answers to. */
  keywords?: string;
  run(): void;
}

/**
 * What the open dashboard lets the palette do; set by the dashboard view while it is shown.
 * A ref-like holder, so registering never re-renders anything.
 */
export interface DashboardCommands {
  addWidget(type: string): void;
  /**
   * Restores a version of this dashboard (the history dialog), undoable from the toolbar as well
   * as from its toast. False when `dashboardId` is not the one on screen.
   */
  restoreVersion?(dashboardId: string, versionId: string): Promise<boolean>;
}
export const DashboardCommandsContext = createContext<{ current: DashboardCommands | null }>({
  current: null,
});

export function useDashboardCommands() {
  return useContext(DashboardCommandsContext);
}

/** A note to open on its dashboard: carried in the navigation's state. */
export interface NoteTarget {
  widgetId: string;
  noteId: string;
}

export interface Findable extends FindableItem {
  dashboardId: string;
  widgetId: string;
}

/** What one dashboard's widgets hold that the palette can find (bookmarks, notes): each type says. */
export function findables(dashboardId: string, widgets: readonly Widget[]): Findable[] {
  return widgets.flatMap((widget) => {
    const definition = definitionFor(widget.widgetType);
    if (!definition.findables) return [];
    return definition
      .findables(definition.parseConfig(widget.config))
      .map((item) => ({ ...item, dashboardId, widgetId: widget.id }));
  });
}

/**
 * Commands matching what was typed: every word must appear in the label, the detail or the
 * keywords; labels that start with the query come first, then the original order.
 */
export function matchCommands(commands: readonly Command[], query: string): Command[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...commands];
  const scored: { command: Command; score: number; index: number }[] = [];
  commands.forEach((command, index) => {
    const label = command.label.toLowerCase();
    const haystack =
      `${label} ${command.detail ?? ""} ${command.group} ${command.keywords ?? ""}`.toLowerCase();
    if (!words.every((w) => haystack.includes(w))) return;
    const score = label.startsWith(words[0]!) ? 0 : label.includes(words[0]!) ? 1 : 2;
    scored.push({ command, score, index });
  });
  return scored.sort((a, b) => a.score - b.score || a.index - b.index).map((s) => s.command);
}

/** What the app-wide commands do; the palette hands in its own (dialogs, settings, session). */
export interface AppActions {
  newDashboard(): void;
  setTheme(theme: Theme): void;
  signOut(): void;
}

/**
 * Commands that need no dashboard: a new dashboard, each theme (the one in use says so) and
 * signing out, so the menus they otherwise live in need not be opened for them.
 */
export function appCommands(t: TFunction, theme: Theme, actions: AppActions): Command[] {
  const themeName: Record<Theme, string> = {
    light: t("settings.theme.light"),
    dark: t("settings.theme.dark"),
    system: t("settings.theme.system"),
  };
  return [
    {
      id: "new-dashboard",
      group: t("palette.groups.dashboards"),
      label: t("header.newDashboard"),
      keywords: t("palette.keywords.newDashboard"),
      run: actions.newDashboard,
    },
    ...THEMES.map(
      (each): Command => ({
        id: `theme-${each}`,
        group: t("palette.groups.settings"),
        label: t("palette.theme", { theme: themeName[each] }),
        detail: each === theme ? t("palette.inUse") : undefined,
        keywords: t("palette.keywords.theme"),
        run: () => actions.setTheme(each),
      }),
    ),
    {
      id: "sign-out",
      group: t("palette.groups.account"),
      label: t("header.signOut"),
      keywords: t("palette.keywords.signOut"),
      run: actions.signOut,
    },
  ];
}
