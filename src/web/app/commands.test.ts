import { describe, expect, it } from "vitest";
import type { Widget } from "../../contract/resources";
import { type Command, findables, matchCommands } from "./commands";

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
