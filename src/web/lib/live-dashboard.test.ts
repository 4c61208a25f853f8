import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Dashboard, Widget } from "../../contract/resources";
import { CLIENT_ID } from "./client-id";
import { type LiveContext, listenToDashboards, resyncDashboard } from "./live-dashboard";
import { liveState } from "./live-state";
import { keys } from "./queries";
import type { WidgetStore } from "./widget-store";
import { WidgetSync } from "./widget-sync";

const widget = (id: string, revision: number, more: Partial<Widget> = {}): Widget => ({
  id,
  userId: "anna",
  dashboardId: "d1",
  widgetType: "Todo",
  positionX: 0,
  positionY: 0,
  width: 300,
  height: 200,
  config: { todos: [] },
  revision,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...more,
});

const dashboard = (id: string, name: string): Dashboard =>
  ({ id, name, access: "editor", revision: 1, createdAt: "2026-01-01T00:00:00.000Z" }) as Dashboard;

/** The app's caches with one dashboard open, and a stream to send events down. */
function setup(pending: string[] = []) {
  const client = new QueryClient();
  client.setQueryData(keys.dashboards, [dashboard("d1", "Family"), dashboard("d2", "Work")]);
  client.setQueryData(keys.widgets("d1"), [widget("a", 1), widget("b", 1)]);
  const forgotten: string[] = [];
  const sync = new WidgetSync({
    read: (d, id) => client.getQueryData<Widget[]>(keys.widgets(d))?.find((w) => w.id === id),
    write: (d, id, next) =>
      client.setQueryData<Widget[]>(keys.widgets(d), (list) => {
        if (!list) return list;
        const at = list.findIndex((w) => w.id === id);
        const value = next(at < 0 ? undefined : list[at]);
        if (!value) return list;
        return at < 0 ? [...list, value] : list.map((w, i) => (i === at ? value : w));
      }),
    hasPendingSave: (id) => pending.includes(id),
    queueSave: () => {},
    put: async () => {
      throw new Error("no network here");
    },
    patch: async () => {
      throw new Error("no network here");
    },
    onRefused: () => {},
  });
  const store = {
    sync,
    saver: { forget: (id: string) => void forgotten.push(id) },
  } as unknown as WidgetStore;
  const lost: [string, string | null][] = [];
  const ctx: LiveContext = {
    client,
    store,
    openDashboard: () => "d1",
    onAccessLost: (id, name) => void lost.push([id, name]),
  };
  const source = new EventTarget();
  listenToDashboards(source as EventSource, ctx);
  const send = (type: string, data: unknown) =>
    source.dispatchEvent(new MessageEvent(type, { data: JSON.stringify(data) }));
  const envelope = (data: unknown, clientId: string | null = "another-tab") => ({
    dashboardId: "d1",
    data,
    by: { id: "ben", name: "Ben" },
    clientId,
  });
  const widgets = () => client.getQueryData<Widget[]>(keys.widgets("d1"))!;
  return { client, ctx, sync, send, envelope, widgets, lost, forgotten };
}

afterEach(() => {
  liveState.reset();
  vi.unstubAllGlobals();
});

describe("a watched dashboard's live events", () => {
  it("apply others' widget changes to the cached list, and skip this tab's own echo", () => {
    const { send, envelope, widgets } = setup();
    send("widget.updated", envelope(widget("a", 2, { positionX: 120 }), CLIENT_ID));
    expect(widgets()[0]!.positionX).toBe(0);
    send("widget.updated", envelope(widget("a", 2, { positionX: 120 })));
    expect(widgets()[0]!.positionX).toBe(120);
    send("widget.created", envelope(widget("c", 1, { widgetType: "Clock" })));
    expect(widgets().map((w) => w.id)).toEqual(["a", "b", "c"]);
    send("widget.deleted", envelope({ id: "b", dashboardId: "d1" }));
    expect(widgets().map((w) => w.id)).toEqual(["a", "c"]);
  });

  it("keep a move this tab has still to save on top of someone else's change", () => {
    const { send, envelope, widgets, sync, client } = setup(["a"]);
    sync.track(widgets()[0]!);
    client.setQueryData<Widget[]>(keys.widgets("d1"), (list) =>
      list?.map((w) => (w.id === "a" ? { ...w, positionX: 600 } : w)),
    );
    send(
      "widget.updated",
      envelope(widget("a", 2, { config: { todos: [{ id: "t", text: "x", done: true }] } })),
    );
    expect(widgets()[0]!.positionX).toBe(600);
    expect(widgets()[0]!.config).toEqual({ todos: [{ id: "t", text: "x", done: true }] });
    expect(widgets()[0]!.revision).toBe(2);
  });

  it("remember who changed a widget's settings, for its open settings panel", () => {
    const { send, envelope } = setup();
    send("widget.updated", envelope(widget("a", 2, { positionX: 60 })));
    expect(liveState.lastRemoteChange("a")?.configChanged).toBe(false);
    send("widget.updated", envelope(widget("a", 3, { config: { todos: [], title: "New" } })));
    expect(liveState.lastRemoteChange("a")).toMatchObject({ by: { name: "Ben" }, configChanged: true });
  });

  it("forget what this tab meant to save of a widget someone else removed", () => {
    const { send, envelope, forgotten } = setup(["a"]);
    send("widget.deleted", envelope({ id: "a", dashboardId: "d1" }));
    expect(forgotten).toEqual(["a"]);
  });

  it("rename the dashboard in the list", () => {
    const { send, envelope, client } = setup();
    send("dashboard.updated", envelope({ ...dashboard("d1", "Family & friends"), revision: 2 }));
    expect(client.getQueryData<Dashboard[]>(keys.dashboards)?.[0]?.name).toBe("Family & friends");
  });

  it("show who is here", () => {
    const { send } = setup();
    liveState.setMe("anna");
    send("presence", {
      dashboardId: "d1",
      present: [
        { userId: "anna", name: "Anna", image: null, editing: null },
        { userId: "ben", name: "Ben", image: null, editing: "a" },
      ],
    });
    expect(liveState.othersOn("d1").map((p) => [p.name, p.editing])).toEqual([["Ben", "a"]]);
  });

  it("take a dashboard whose access was taken away off the list, and off the screen", () => {
    const { send, client, lost } = setup();
    send("access.changed", { dashboardId: "d2", access: "viewer" });
    expect(client.getQueryData<Dashboard[]>(keys.dashboards)?.[1]?.access).toBe("viewer");
    send("access.changed", { dashboardId: "d2", access: null });
    expect(lost).toEqual([]);
    send("access.changed", { dashboardId: "d1", access: null });
    expect(client.getQueryData<Dashboard[]>(keys.dashboards)?.map((d) => d.id)).toEqual([]);
    expect(lost).toEqual([["d1", "Family"]]);
  });
});

describe("reading a dashboard again after a reconnect", () => {
  it("takes what changed, adds what is new, drops what is gone", async () => {
    const { ctx, widgets } = setup();
    vi.stubGlobal(
      "fetch",
      vi.fn(async () =>
        Response.json([widget("a", 3, { positionY: 400 }), widget("n", 1, { widgetType: "Clock" })]),
      ),
    );
    await resyncDashboard(ctx, "d1");
    expect(widgets().map((w) => [w.id, w.revision])).toEqual([
      ["a", 3],
      ["n", 1],
    ]);
    expect(widgets()[0]!.positionY).toBe(400);
  });
});

describe("a widget removed meanwhile", () => {
  it("is not brought back by news of it arriving late", () => {
    const { send, envelope, widgets, sync, client } = setup();
    sync.forget("a");
    client.setQueryData<Widget[]>(keys.widgets("d1"), (list) => list?.filter((w) => w.id !== "a"));
    send("widget.updated", envelope(widget("a", 5)));
    expect(widgets().map((w) => w.id)).toEqual(["b"]);
  });
});
