import type { Problem } from "../../contract/errors";
import { LAYOUT_KEY } from "../../contract/layout";
import type { Widget } from "../../contract/resources";
import type { Author, DashboardEvent } from "../../contract/sharing";
import type { PatchOperation } from "../../contract/widget-patch";
import { ApiError } from "./api";
import { applyJsonPatch } from "./json-patch";
import { isRecord } from "./parse";

/**
 * The pure half of editing a dashboard together (DESIGN section 14): merging a change someone
 * else made into what this tab shows, applying live events to a cached widget list, and telling
 * a stale write's conflict apart. No React, no network: unit-tested on its own.
 */

/** Deep equality of JSON values; the order of an object's members does not matter. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameJson(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((key) => left[key] !== undefined);
  if (keys.length !== Object.keys(right).filter((key) => right[key] !== undefined).length) return false;
  return keys.every((key) => sameJson(left[key], right[key]));
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Three-way merge of JSON values: what `local` changed since `base` is kept on top of `remote`.
 * Objects merge member by member (a layout moved here, a to-do ticked there: both stay); anything
 * else (a list, a string) is one value, and when both sides changed it, `local` wins: its save
 * is the later write.
 */
export function merge3(base: unknown, local: unknown, remote: unknown): unknown {
  if (sameJson(local, base)) return remote;
  if (sameJson(remote, base)) return local;
  if (isPlainObject(base) && isPlainObject(local) && isPlainObject(remote)) {
    const out: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(remote), ...Object.keys(local)])) {
      const value = merge3(base[key], local[key], remote[key]);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  return local;
}

type Geometry = Pick<Widget, "positionX" | "positionY" | "width" | "height">;

const geometryOf = (w: Geometry): Geometry => ({
  positionX: w.positionX,
  positionY: w.positionY,
  width: w.width,
  height: w.height,
});

/**
 * A widget as this tab shows it once the server's version moved from `base` to `remote`: the
 * local changes not yet saved (`local` against `base`) stay on top. A widget's place is one
 * thing (moved here and there: this tab's move wins); its config merges member by member.
 */
export function mergeWidget(base: Widget, local: Widget, remote: Widget): Widget {
  const geometry = sameJson(geometryOf(local), geometryOf(base)) ? geometryOf(remote) : geometryOf(local);
  const config = merge3(base.config, local.config, remote.config);
  return { ...remote, ...geometry, config: isPlainObject(config) ? config : remote.config };
}

/** Operations on the config (paths inside it, "/todos/3/done") as the widget record's ("/config/todos/3/done"). */
export function underConfig(ops: readonly PatchOperation[]): PatchOperation[] {
  return ops.map((op) => ({
    ...op,
    path: `/config${op.path}`,
    ...(op.from === undefined ? {} : { from: `/config${op.from}` }),
  }));
}

/** A config with operations (paths inside the config) applied, or null when one does not apply. */
export function patchedConfig(
  config: Record<string, unknown>,
  ops: readonly PatchOperation[],
): Record<string, unknown> | null {
  const result = applyJsonPatch(config, ops);
  return result.ok && isPlainObject(result.value) ? result.value : null;
}

/** One live change of a dashboard's widgets. */
export type WidgetEvent =
  | { kind: "created" | "updated"; widget: Widget }
  | { kind: "deleted"; id: string; dashboardId: string };

/**
 * A cached widget list with a live event applied. An event older than what the list holds (by
 * revision) changes nothing; an update of a widget the list lacks adds it (its creation was
 * missed). The same list comes back when nothing changed, so nothing re-renders.
 */
export function applyWidgetEvent(list: Widget[] | undefined, event: WidgetEvent): Widget[] | undefined {
  if (!list) return list;
  if (event.kind === "deleted") {
    return list.some((w) => w.id === event.id) ? list.filter((w) => w.id !== event.id) : list;
  }
  const { widget } = event;
  const at = list.findIndex((w) => w.id === widget.id);
  if (at < 0) return [...list, widget];
  if (list[at]!.revision >= widget.revision) return list;
  return list.map((w, i) => (i === at ? widget : w));
}

/** True when this tab caused the event (its `X-Client-Id`): it already shows the change. */
export const isOwnEcho = (event: Pick<DashboardEvent, "clientId">, clientId: string) =>
  event.clientId !== null && event.clientId === clientId;

const isAuthor = (value: unknown): value is Author =>
  isRecord(value) && typeof value.id === "string" && typeof value.name === "string";

/** A dashboard event's envelope from an SSE `data` line, or null when it is not one. */
export function parseEnvelope(data: string): DashboardEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isRecord(value) || typeof value.dashboardId !== "string" || !("data" in value)) return null;
  return {
    dashboardId: value.dashboardId,
    data: value.data,
    by: isAuthor(value.by) ? { id: value.by.id, name: value.by.name } : null,
    clientId: typeof value.clientId === "string" ? value.clientId : null,
  };
}

/** Whether a value looks like a widget record (what events and conflicts carry). */
export function isWidget(value: unknown): value is Widget {
  return (
    isRecord(value) &&
    typeof value.id === "string" &&
    typeof value.dashboardId === "string" &&
    typeof value.widgetType === "string" &&
    typeof value.revision === "number" &&
    isRecord(value.config)
  );
}

/** The stored widget a write was refused for (409 `conflict`: it changed since that revision), else null. */
export function conflictCurrent(error: unknown): Widget | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const problem: Problem | null = error.problem;
  if (problem?.code !== "conflict") return null;
  return isWidget(problem.current) ? problem.current : null;
}

/**
 * Whether two configs say the same apart from the grid's cells (`layout`, which the settings
 * panel never edits): a change of only those is no reason to ask the panel's reader anything.
 */
export function sameSettings(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const { [LAYOUT_KEY]: _a, ...left } = a;
  const { [LAYOUT_KEY]: _b, ...right } = b;
  return sameJson(left, right);
}

/** Someone else's change to a widget, as the settings dialog hears of it. */
export interface RemoteChange {
  widget: Widget;
  by: Author | null;
  /** It changed what the settings panel edits (not only the widget's place). */
  configChanged: boolean;
}

/**
 * What the settings dialog knows of others' changes: the widget its draft is made on (`base`),
 * and the change it asks its reader about ("Ben changed this widget while you were editing").
 */
export interface DialogSync {
  base: Widget;
  asked: RemoteChange | null;
}

/**
 * The dialog hears of someone else's change. One that only moved or resized the widget is
 * taken in silently (the panel saves on its revision); one of the settings is asked about, and
 * stays asked about, following later changes (so "Keep mine" saves on the newest revision).
 */
export function dialogHears(state: DialogSync, remote: RemoteChange | null): DialogSync {
  if (!remote || remote.widget.revision <= state.base.revision) return state;
  const { asked } = state;
  if (asked) {
    if (remote.widget.revision <= asked.widget.revision) return state;
    return {
      ...state,
      asked: { ...remote, by: remote.configChanged ? remote.by : asked.by, configChanged: true },
    };
  }
  if (remote.configChanged) return { ...state, asked: remote };
  return { base: remote.widget, asked: null };
}

/**
 * The dialog's save was refused as stale (409 with the stored widget): asked about, unless what
 * changed is only the widget's place (then it saves again on the stored revision: `retry`).
 */
export function dialogRefused(
  state: DialogSync,
  current: Widget,
  heard: RemoteChange | null,
): DialogSync & { retry: boolean } {
  if (sameSettings(current.config, state.base.config)) return { base: current, asked: null, retry: true };
  const by = heard && heard.widget.revision === current.revision ? heard.by : (state.asked?.by ?? null);
  return { base: state.base, asked: { widget: current, by, configChanged: true }, retry: false };
}
