import { describe, expect, it } from "vitest";
import type { Widget } from "../../contract/resources";
import { ApiError } from "./api";
import { makeClientId } from "./client-id";
import {
  applyWidgetEvent,
  conflictCurrent,
  dialogHears,
  dialogRefused,
  isOwnEcho,
  merge3,
  mergeWidget,
  parseEnvelope,
  sameJson,
  sameSettings,
  underConfig,
} from "./live-sync";

const widget = (id: string, revision: number, more: Partial<Widget> = {}): Widget => ({
  id,
  userId: "owner",
  dashboardId: "d1",
  widgetType: "Todo",
  positionX: 0,
  positionY: 0,
  width: 300,
  height: 200,
  config: {},
  revision,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...more,
});

describe("merging someone else's change under this tab's own", () => {
  it("compares JSON whatever the order of members", () => {
    expect(sameJson({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(true);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson({ a: 1 }, { a: "1" })).toBe(false);
  });

  it("keeps the member each side changed, theirs where only they changed it", () => {
    const base = { title: "Old", todos: ["a"], layout: { md: 1, sm: 1 } };
    const local = { title: "Old", todos: ["a"], layout: { md: 2, sm: 1 } };
    const remote = { title: "New", todos: ["a", "b"], layout: { md: 1, sm: 3 } };
    expect(merge3(base, local, remote)).toEqual({
      title: "New",
      todos: ["a", "b"],
      layout: { md: 2, sm: 3 },
    });
  });

  it("lets this tab's value win where both changed the same one (its save is the later write)", () => {
    expect(merge3({ text: "a" }, { text: "mine" }, { text: "theirs" })).toEqual({ text: "mine" });
    expect(merge3({ list: [1] }, { list: [1, 2] }, { list: [1, 3] })).toEqual({ list: [1, 2] });
  });

  it("keeps a member this tab removed, and one they added", () => {
    expect(merge3({ a: 1, b: 2 }, { a: 1 }, { a: 1, b: 2, c: 3 })).toEqual({ a: 1, c: 3 });
  });

  it("treats a widget's place as one: moved here wins over moved there, config still merges", () => {
    const base = widget("w", 3, { config: { a: 1, b: 1 } });
    const local = { ...base, positionX: 300, config: { a: 2, b: 1 } };
    const remote = widget("w", 4, { positionY: 500, config: { a: 1, b: 5 } });
    const merged = mergeWidget(base, local, remote);
    expect([merged.positionX, merged.positionY]).toEqual([300, 0]);
    expect(merged.config).toEqual({ a: 2, b: 5 });
    expect(merged.revision).toBe(4);
  });

  it("takes their place when this tab did not move the widget", () => {
    const base = widget("w", 3);
    const merged = mergeWidget(base, { ...base, config: { x: 1 } }, widget("w", 4, { positionY: 500 }));
    expect(merged.positionY).toBe(500);
    expect(merged.config).toEqual({ x: 1 });
  });
});

describe("live widget events on a cached list", () => {
  const list = [widget("a", 1), widget("b", 2)];

  it("adds a created widget once", () => {
    const added = applyWidgetEvent(list, { kind: "created", widget: widget("c", 1) });
    expect(added?.map((w) => w.id)).toEqual(["a", "b", "c"]);
    expect(applyWidgetEvent(added, { kind: "created", widget: widget("c", 1) })).toBe(added);
  });

  it("replaces an updated widget only with a newer revision", () => {
    const moved = widget("b", 3, { positionX: 99 });
    expect(applyWidgetEvent(list, { kind: "updated", widget: moved })?.[1]).toBe(moved);
    expect(applyWidgetEvent(list, { kind: "updated", widget: widget("b", 2, { positionX: 5 }) })).toBe(list);
    expect(applyWidgetEvent(list, { kind: "updated", widget: widget("b", 1) })).toBe(list);
  });

  it("adds an updated widget it never heard of, and drops a deleted one", () => {
    expect(applyWidgetEvent(list, { kind: "updated", widget: widget("z", 4) })).toHaveLength(3);
    expect(applyWidgetEvent(list, { kind: "deleted", id: "a", dashboardId: "d1" })?.map((w) => w.id)).toEqual(
      ["b"],
    );
    expect(applyWidgetEvent(list, { kind: "deleted", id: "nope", dashboardId: "d1" })).toBe(list);
  });

  it("leaves a list that is not loaded alone", () => {
    expect(applyWidgetEvent(undefined, { kind: "created", widget: widget("c", 1) })).toBeUndefined();
  });
});

describe("this tab's own echo", () => {
  it("is recognised by the client id, and only by it", () => {
    const mine = makeClientId();
    expect(isOwnEcho({ clientId: mine }, mine)).toBe(true);
    expect(isOwnEcho({ clientId: "another-tab" }, mine)).toBe(false);
    expect(isOwnEcho({ clientId: null }, mine)).toBe(false);
  });

  it("makes client ids the server accepts", () => {
    const id = makeClientId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(makeClientId()).not.toBe(id);
    expect(makeClientId(new Uint8Array([0, 63, 64, 255]))).toBe("A-A-");
  });

  it("reads an event's envelope, and nothing else", () => {
    const data = JSON.stringify({
      dashboardId: "d1",
      data: { id: "w" },
      by: { id: "u", name: "Ben" },
      clientId: "t",
    });
    expect(parseEnvelope(data)).toEqual({
      dashboardId: "d1",
      data: { id: "w" },
      by: { id: "u", name: "Ben" },
      clientId: "t",
    });
    expect(parseEnvelope(JSON.stringify({ dashboardId: "d1", data: null }))).toEqual({
      dashboardId: "d1",
      data: null,
      by: null,
      clientId: null,
    });
    expect(parseEnvelope("{nope")).toBeNull();
    expect(parseEnvelope(JSON.stringify({ data: {} }))).toBeNull();
  });
});

describe("conflicts", () => {
  const stored = widget("w", 7, { config: { todos: [] } });
  const problem = (code: string, current: unknown) =>
    new ApiError(
      409,
      { type: "about:blank", title: "Conflict", status: 409, detail: "", code, current } as never,
      "",
    );

  it("finds the stored widget a stale write was refused for", () => {
    expect(conflictCurrent(problem("conflict", stored))).toEqual(stored);
    expect(conflictCurrent(problem("limit_reached", stored))).toBeNull();
    expect(conflictCurrent(problem("conflict", { nothing: true }))).toBeNull();
    expect(conflictCurrent(new ApiError(400, null, "bad"))).toBeNull();
    expect(conflictCurrent(new Error("x"))).toBeNull();
  });

  it("asks the settings dialog about someone else's change of the settings, not of the place", () => {
    const ben = { id: "u2", name: "Ben" };
    const opened = widget("w", 4, { config: { title: "A", layout: { md: 1 } } });
    const start = { base: opened, asked: null };
    // Older news, or none: nothing to ask.
    expect(dialogHears(start, null)).toBe(start);
    expect(dialogHears(start, { widget: widget("w", 4), by: ben, configChanged: true })).toBe(start);
    // Only moved (or its cells at a narrower width changed): taken in, the save goes on from there.
    const moved = {
      widget: widget("w", 5, { positionX: 60, config: { title: "A", layout: { md: 2 } } }),
      by: ben,
      configChanged: false,
    };
    expect(dialogHears(start, moved)).toEqual({ base: moved.widget, asked: null });
    // Renamed: asked about; a move after it keeps the question, on the newest revision, naming Ben.
    const renamed = { widget: widget("w", 5, { config: { title: "B" } }), by: ben, configChanged: true };
    const asking = dialogHears(start, renamed);
    expect(asking).toEqual({ base: opened, asked: renamed });
    const later = dialogHears(asking, {
      widget: widget("w", 6),
      by: { id: "u3", name: "Cy" },
      configChanged: false,
    });
    expect(later.asked?.widget.revision).toBe(6);
    expect(later.asked?.by).toEqual(ben);
  });

  it("tells a refused save of a settings change from one refused only because the widget moved", () => {
    const opened = widget("w", 4, { config: { title: "A" } });
    const moved = widget("w", 5, { positionY: 80, config: { title: "A", layout: { sm: 1 } } });
    expect(dialogRefused({ base: opened, asked: null }, moved, null)).toEqual({
      base: moved,
      asked: null,
      retry: true,
    });
    const renamed = widget("w", 5, { config: { title: "B" } });
    const ben = { id: "u2", name: "Ben" };
    expect(
      dialogRefused({ base: opened, asked: null }, renamed, {
        widget: renamed,
        by: ben,
        configChanged: true,
      }),
    ).toEqual({
      base: opened,
      asked: { widget: renamed, by: ben, configChanged: true },
      retry: false,
    });
    expect(dialogRefused({ base: opened, asked: null }, renamed, null).asked?.by).toBeNull();
  });

  it("compares settings without the grid's cells", () => {
    expect(sameSettings({ title: "A", layout: { md: 1 } }, { layout: { md: 2 }, title: "A" })).toBe(true);
    expect(sameSettings({ title: "A" }, { title: "B" })).toBe(false);
  });

  it("says config operations as operations on the widget record", () => {
    expect(
      underConfig([
        { op: "test", path: "/todos/0/id", value: "a" },
        { op: "move", from: "/todos/0", path: "/todos/2" },
      ]),
    ).toEqual([
      { op: "test", path: "/config/todos/0/id", value: "a" },
      { op: "move", from: "/config/todos/0", path: "/config/todos/2" },
    ]);
  });
});
