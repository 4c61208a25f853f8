import { describe, expect, it } from "vitest";
import type { UpdateWidgetInput, Widget } from "../../contract/resources";
import type { PatchOperation } from "../../contract/widget-patch";
import { ApiError } from "./api";
import { applyJsonPatch } from "./json-patch";
import { WidgetSync } from "./widget-sync";

const widget = (revision: number, more: Partial<Widget> = {}): Widget => ({
  id: "w",
  userId: "owner",
  dashboardId: "d",
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

const conflict = (current: Widget) =>
  new ApiError(
    409,
    { type: "about:blank", title: "Conflict", status: 409, detail: "stale", code: "conflict", current },
    "stale",
  );

const todo = (id: string, done = false) => ({ id, text: id, done, createdAt: "" });

/** A sync over one cached widget and a hand-written server. */
function harness(start: Widget) {
  let shown: Widget | undefined = start;
  let stored = start;
  let pendingSave = false;
  const puts: UpdateWidgetInput[] = [];
  const patches: PatchOperation[][] = [];
  const queued: Record<string, unknown>[] = [];
  const refused: unknown[] = [];
  /** Lets a test hold the server's next answer back, or make it fail. */
  const server = {
    put: async (body: UpdateWidgetInput): Promise<Widget> => {
      puts.push(body);
      if (body.revision !== undefined && body.revision !== stored.revision) throw conflict(stored);
      const { revision: _r, id: _i, ...fields } = body;
      stored = { ...stored, ...fields, revision: stored.revision + 1 } as Widget;
      return stored;
    },
    patch: async (body: { id: string; ops: PatchOperation[] }): Promise<Widget> => {
      patches.push(body.ops);
      const result = applyJsonPatch({ config: stored.config }, body.ops);
      if (!result.ok) throw conflict(stored);
      stored = {
        ...stored,
        config: (result.value as { config: Record<string, unknown> }).config,
        revision: stored.revision + 1,
      };
      return stored;
    },
  };
  const sync = new WidgetSync({
    read: () => shown,
    write: (_d, _id, next) => {
      const value = next(shown);
      if (value) shown = value;
    },
    hasPendingSave: () => pendingSave,
    queueSave: (_id, config) => void queued.push(config),
    put: (body) => server.put(body),
    patch: (body) => server.patch(body),
    onRefused: (error) => void refused.push(error),
  });
  return {
    sync,
    server,
    puts,
    patches,
    queued,
    refused,
    shown: () => shown!,
    stored: () => stored,
    /** Someone else writes on the server. */
    theyWrite(change: (w: Widget) => Partial<Widget>) {
      stored = { ...stored, ...change(stored), revision: stored.revision + 1 };
      return stored;
    },
    /** A local edit as the store makes it: tracked first, then drawn, then left to the saver. */
    edit(change: (w: Widget) => Partial<Widget>) {
      sync.track(shown!);
      shown = { ...shown!, ...change(shown!) };
      pendingSave = true;
    },
    saved() {
      pendingSave = false;
    },
  };
}

const flush = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

describe("WidgetSync", () => {
  it("takes someone else's version at once when this tab has nothing of its own under way", () => {
    const h = harness(widget(1));
    h.sync.receive(widget(2, { positionX: 500 }));
    expect(h.shown().positionX).toBe(500);
    h.sync.receive(widget(1, { positionX: 0 }));
    expect(h.shown().positionX).toBe(500);
  });

  it("keeps a move still to be saved on top of someone else's config change, and saves it on their revision", async () => {
    const h = harness(widget(1, { config: { todos: [todo("a")] } }));
    h.edit(() => ({ positionX: 240 }));
    const theirs = h.theyWrite(() => ({ config: { todos: [todo("a", true)] } }));
    h.sync.receive(theirs);
    expect(h.shown().positionX).toBe(240);
    expect(h.shown().config).toEqual({ todos: [todo("a", true)] });

    await h.sync.save({ id: "w", positionX: 240, positionY: 0, width: 300, height: 200 }, {});
    h.saved();
    expect(h.puts).toEqual([{ id: "w", revision: 2, positionX: 240, positionY: 0, width: 300, height: 200 }]);
    expect(h.stored().config).toEqual({ todos: [todo("a", true)] });
    expect(h.stored().positionX).toBe(240);
    expect(h.shown().revision).toBe(3);
  });

  it("never undoes someone else's change with a whole config saved from before it", async () => {
    const h = harness(widget(1, { config: { title: "Old", todos: [], layout: { md: { x: 0 } } } }));
    h.edit((w) => ({ config: { ...w.config, layout: { md: { x: 4 } } } }));
    // Their rename reaches the server before this tab's save, and this tab hears of it only later.
    h.theyWrite((w) => ({ config: { ...w.config, title: "New" } }));
    await h.sync.save({ id: "w", config: h.shown().config }, {});
    h.saved();
    // Refused as stale, merged onto theirs, sent again.
    expect(h.puts.map((p) => p.revision)).toEqual([1, 2]);
    expect(h.stored().config).toEqual({ title: "New", todos: [], layout: { md: { x: 4 } } });
    expect(h.shown().config).toEqual(h.stored().config);
  });

  it("lets the later move win when both moved the widget, quietly", async () => {
    const h = harness(widget(1));
    h.edit(() => ({ positionX: 100 }));
    h.theyWrite(() => ({ positionX: 900, positionY: 900 }));
    await h.sync.save({ id: "w", positionX: 100, positionY: 0, width: 300, height: 200 }, {});
    h.saved();
    expect([h.stored().positionX, h.stored().positionY]).toEqual([100, 0]);
    expect(h.refused).toEqual([]);
  });

  it("sends a patch, draws it at once, and takes the answer with others' changes in it", async () => {
    const h = harness(widget(1, { config: { todos: [todo("a"), todo("b")] } }));
    h.theyWrite(() => ({ config: { todos: [todo("a"), todo("b", true)] } }));
    const ok = h.sync.patch("d", "w", (config) => {
      const index = (config.todos as { id: string }[]).findIndex((t) => t.id === "a");
      return [
        { op: "test", path: `/todos/${index}/id`, value: "a" },
        { op: "replace", path: `/todos/${index}/done`, value: true },
      ];
    });
    expect(ok).toBe(true);
    expect(h.shown().config).toEqual({ todos: [todo("a", true), todo("b")] });
    await flush();
    expect(h.patches[0]?.[0]).toEqual({ op: "test", path: "/config/todos/0/id", value: "a" });
    expect(h.stored().config).toEqual({ todos: [todo("a", true), todo("b", true)] });
    expect(h.shown().config).toEqual(h.stored().config);
    expect(h.shown().revision).toBe(3);
  });

  it("says a patch again when the list moved under it (a failed test)", async () => {
    const h = harness(widget(1, { config: { todos: [todo("a"), todo("b")] } }));
    // Someone removed "a" first: "b" is at index 0 now.
    h.theyWrite(() => ({ config: { todos: [todo("b")] } }));
    h.sync.patch("d", "w", (config) => {
      const index = (config.todos as { id: string }[]).findIndex((t) => t.id === "b");
      return index < 0
        ? []
        : [
            { op: "test", path: `/todos/${index}/id`, value: "b" },
            { op: "replace", path: `/todos/${index}/done`, value: true },
          ];
    });
    await flush();
    expect(h.patches).toHaveLength(2);
    expect(h.stored().config).toEqual({ todos: [todo("b", true)] });
    expect(h.shown().config).toEqual({ todos: [todo("b", true)] });
  });

  it("keeps a patch drawn while someone else's change arrives before its answer", async () => {
    const h = harness(widget(1, { config: { todos: [todo("a"), todo("b")] } }));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const send = h.server.patch;
    h.server.patch = async (body) => {
      await gate;
      return send(body);
    };
    h.sync.patch("d", "w", () => [
      { op: "test", path: "/todos/0/id", value: "a" },
      { op: "replace", path: "/todos/0/done", value: true },
    ]);
    h.sync.receive(h.theyWrite(() => ({ config: { todos: [todo("a"), todo("b", true)] } })));
    expect(h.shown().config).toEqual({ todos: [todo("a", true), todo("b", true)] });
    release();
    await flush();
    expect(h.shown().config).toEqual({ todos: [todo("a", true), todo("b", true)] });
  });

  it("hands a patch that could not be sent (offline) to the saver, still drawn", async () => {
    const h = harness(widget(1, { config: { todos: [todo("a")] } }));
    h.server.patch = async () => {
      throw new ApiError(0, null, "network error");
    };
    h.sync.patch("d", "w", () => [{ op: "replace", path: "/todos/0/done", value: true }]);
    await flush();
    expect(h.queued).toEqual([{ todos: [todo("a", true)] }]);
    expect(h.shown().config).toEqual({ todos: [todo("a", true)] });
    expect(h.refused).toEqual([]);
  });

  it("takes back a patch the server refuses for good, and says so", async () => {
    const h = harness(widget(1, { config: { todos: [todo("a")] } }));
    h.server.patch = async () => {
      throw new ApiError(400, null, "invalid");
    };
    h.sync.patch("d", "w", () => [{ op: "replace", path: "/todos/0/done", value: true }]);
    await flush();
    expect(h.shown().config).toEqual({ todos: [todo("a")] });
    expect(h.refused).toHaveLength(1);
  });

  it("refuses the settings dialog's save made on a stale revision, showing the stored widget", async () => {
    const h = harness(widget(1, { config: { title: "Mine" } }));
    const theirs = h.theyWrite(() => ({ config: { title: "Theirs" } }));
    const refused = h.sync.saveConfig(h.shown(), { title: "Mine 2" }, 1);
    // Drawn at once, taken back when refused: the widget shows what is stored.
    expect(h.shown().config).toEqual({ title: "Mine 2" });
    await expect(refused).rejects.toMatchObject({ status: 409 });
    expect(h.shown()).toEqual(theirs);
    // Keep mine: saved on their revision, on purpose.
    const saved = await h.sync.saveConfig(h.shown(), { title: "Mine 2" }, theirs.revision);
    expect(saved.config).toEqual({ title: "Mine 2" });
    expect(h.sync.wrote("w")).toBe(saved.revision);
  });

  it("writes a patch that cannot be said as operations whole (the caller's fallback)", () => {
    const h = harness(widget(1));
    expect(h.sync.patch("d", "w", () => null)).toBe(false);
    expect(h.sync.patch("d", "w", () => [{ op: "remove", path: "/missing" }])).toBe(false);
    expect(h.sync.patch("d", "w", () => [])).toBe(true);
    expect(h.patches).toEqual([]);
  });
});
