import { afterEach, describe, expect, it, vi } from "vitest";
import type { Widget } from "../../contract/resources";
import { switchLanguage, t } from "../i18n/i18n";
import { appCommands, type Command, findables, matchCommands } from "./commands";

const command = (label: string, group = "Dashboards", keywords = ""): Command => ({
  id: label,
  group,
  label,
  keywords,
  run: () => {},
});

describe("the command palette's search", () => {
  const commands = [
    command("Home"),
    command("Homelab servers"),
    command("Add Clock", "Add a widget", "time"),
    command("Settings: Reminders", "Settings"),
    command("Jellyfin", "Bookmarks", "http://jellyfin.home.lan:8096/"),
  ];

  it("keeps everything for an empty query, in order", () => {
    expect(matchCommands(commands, "  ").map((c) => c.label)).toEqual(commands.map((c) => c.label));
  });

  it("needs every word, anywhere in label, group or keywords; label starts first", () => {
    expect(matchCommands(commands, "home").map((c) => c.label)).toEqual([
      "Home",
      "Homelab servers",
      "Jellyfin",
    ]);
    expect(matchCommands(commands, "add time").map((c) => c.label)).toEqual(["Add Clock"]);
    expect(matchCommands(commands, "remind").map((c) => c.label)).toEqual(["Settings: Reminders"]);
    expect(matchCommands(commands, "8096").map((c) => c.label)).toEqual(["Jellyfin"]);
    expect(matchCommands(commands, "nothing")).toEqual([]);
  });
});

describe("what the palette can find on a dashboard", () => {
  it("lists bookmarks with their host and notes by their label", () => {
    const widgets = [
      {
        id: "w1",
        widgetType: "Bookmark",
        config: { bookmarks: [{ id: "b", title: "Sonarr", url: "192.168.1.10:8989" }] },
      },
      {
        id: "w2",
        widgetType: "Editor",
        config: { notes: [{ id: "n", title: "", markdown: "# Shopping\n- milk" }] },
      },
      { id: "w3", widgetType: "Clock", config: {} },
    ] as unknown as Widget[];
    expect(findables("d", widgets)).toEqual([
      {
        kind: "bookmark",
        dashboardId: "d",
        widgetId: "w1",
        itemId: "b",
        label: "Sonarr",
        detail: "192.168.1.10:8989",
        text: "http://192.168.1.10:8989/",
      },
      expect.objectContaining({ kind: "note", widgetId: "w2", itemId: "n", label: "Shopping" }),
    ]);
  });
});

describe("the commands that need no dashboard", () => {
  afterEach(() => switchLanguage("en"));
  const actions = () => ({ newDashboard: vi.fn(), setTheme: vi.fn(), signOut: vi.fn() });

  it("offer a new dashboard, each theme (marking the one in use) and signing out", () => {
    const list = appCommands(t, "dark", actions());
    expect(list.map((c) => [c.group, c.label, c.detail])).toEqual([
      ["Dashboards", "New dashboard", undefined],
      ["Settings", "Theme: Light", undefined],
      ["Settings", "Theme: Dark", "in use"],
      ["Settings", "Theme: System", undefined],
      ["Account", "Sign out", undefined],
    ]);
  });

  it("run what they say", () => {
    const run = actions();
    const byId = new Map(appCommands(t, "light", run).map((c) => [c.id, c]));
    byId.get("new-dashboard")?.run();
    byId.get("theme-system")?.run();
    byId.get("sign-out")?.run();
    expect(run.newDashboard).toHaveBeenCalledOnce();
    expect(run.setTheme).toHaveBeenCalledWith("system");
    expect(run.signOut).toHaveBeenCalledOnce();
  });

  it("are found by the words people type for them, in German too", async () => {
    const find = (query: string) =>
      matchCommands(appCommands(t, "system", actions()), query).map((c) => c.id);
    expect(find("dark mode")).toEqual(["theme-dark"]);
    expect(find("log out")).toEqual(["sign-out"]);
    expect(find("create dashboard")).toEqual(["new-dashboard"]);
    await switchLanguage("de");
    expect(find("dunkel")).toEqual(["theme-dark"]);
    expect(find("abmelden")).toEqual(["sign-out"]);
    expect(find("neues dashboard")).toEqual(["new-dashboard"]);
  });
});
