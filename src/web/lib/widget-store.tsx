import { useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from "react";
import { type Cell, LAYOUT_KEY } from "../../contract/layout";
import type { CreateWidgetInput, Widget } from "../../contract/resources";
import type { PatchOperation } from "../../contract/widget-patch";
import { type Breakpoint, pixelsOfCell } from "../grid/geometry";
import { type Geometry, type SaverStatus, WidgetSaver } from "../grid/saver";
import { t } from "../i18n/i18n";
import { useToasts } from "../ui/Toasts";
import { ApiError, api, describeError } from "./api";
import { isRecord } from "./parse";
import { keys } from "./queries";
import { WidgetSync } from "./widget-sync";

/** A widget's cell at one breakpoint: the stored pixels at the widest, config.layout below. */
export interface CellChange {
  id: string;
  breakpoint: Breakpoint;
  cell: Cell;
}

export interface WidgetStore {
  /** Returns the new config, or null when the widget is not in the cache. */
  updateConfig(
    dashboardId: string,
    id: string,
    next: (raw: unknown) => Record<string, unknown>,
  ): Record<string, unknown> | null;
  /**
   * A change of part of the config, sent as JSON Patch (`build` says it as operations on the
   * config, paths inside it, or null when it cannot) so others' changes to other parts survive;
   * `next` is the same change as a whole config, saved when it cannot travel as a patch.
   */
  patchConfig(
    dashboardId: string,
    id: string,
    build: (config: Record<string, unknown>) => PatchOperation[] | null,
    next: (raw: unknown) => Record<string, unknown>,
  ): void;
  /** The settings dialog's save: made on `revision`; a stale one is refused (409 with `current`). */
  saveConfig(widget: Widget, config: Record<string, unknown>, revision: number): Promise<Widget>;
  setCells(dashboardId: string, changes: CellChange[]): void;
  create(input: CreateWidgetInput): Promise<Widget>;
  remove(dashboardId: string, id: string): Promise<Widget>;
  retry(): void;
  saver: WidgetSaver;
  /** Keeps the cache in step with others' changes (live events, conflicts): widget-sync.ts. */
  sync: WidgetSync;
}

const StoreContext = createContext<WidgetStore | null>(null);
const StatusContext = createContext<SaverStatus>({ pending: 0, failing: false, lastError: null });

export const geometryOf = (w: Widget): Geometry => ({
  positionX: w.positionX,
  positionY: w.positionY,
  width: w.width,
  height: w.height,
});

/**
 * The query cache holds each dashboard's widgets as the user sees them, edits included; the saver
 * carries those edits to the server in the background. A newer version from the server (a save's
 * answer, someone else's change) never overwrites an edit still to be saved: widget-sync.ts draws
 * the edits again on top of it, so typing ahead of a slow request is safe.
 */
export function WidgetStoreProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const toasts = useToasts();
  const [saverStatus, setStatus] = useState<SaverStatus>({ pending: 0, failing: false, lastError: null });
  /** Writes made outside the saver (patches, the settings dialog's saves), counted in the status too. */
  const [outside, setOutside] = useState(0);
  const status = useMemo(
    () => ({ ...saverStatus, pending: saverStatus.pending + outside }),
    [saverStatus, outside],
  );

  const { saver, sync } = useMemo(() => {
    const cached = (dashboardId: string) => client.getQueryData<Widget[]>(keys.widgets(dashboardId));
    // The two need each other: the saver sends through the sync, which asks the saver what waits.
    const late: { saver: WidgetSaver | null } = { saver: null };
    const sync = new WidgetSync({
      read: (dashboardId, id) => cached(dashboardId)?.find((w) => w.id === id),
      write: (dashboardId, id, next) =>
        client.setQueryData<Widget[]>(keys.widgets(dashboardId), (list) => {
          if (!list) return list;
          const at = list.findIndex((w) => w.id === id);
          const widget = next(at < 0 ? undefined : list[at]);
          if (!widget) return list;
          return at < 0 ? [...list, widget] : list.map((w, i) => (i === at ? widget : w));
        }),
      hasPendingSave: (id) => late.saver?.hasPending(id) ?? false,
      queueSave: (id, config) => late.saver?.queue(id, { config }),
      put: (body, options) => api.widgets.update(body, options),
      patch: (body) => api.widgets.patch(body),
      onBusy: (delta) => setOutside((n) => n + delta),
      onRefused: (error) =>
        toasts.show({
          tone: "error",
          message: t("lib.widgetStore.refused", { reason: describeError(error) }),
        }),
    });
    const saver: WidgetSaver = new WidgetSaver({
      // Each save names the revision it was made on; one refused as stale is merged and resent.
      send: (body, options) => sync.save(body, options),
      delayMs: 500,
      onStatus: setStatus,
      onFailure: (error) =>
        toasts.show({
          key: "save-failed",
          tone: "error",
          message: t("lib.widgetStore.saveFailed", { reason: describeError(error) }),
          action: { label: t("lib.widgetStore.retryNow"), run: () => void saver.flush() },
        }),
      isPermanent: (error) => {
        if (!(error instanceof ApiError) || error.status === 0 || error.status >= 500) return false;
        if (error.status === 401 || error.status === 429 || error.status === 403) return false;
        if (error.status !== 404) {
          toasts.show({
            tone: "error",
            message: t("lib.widgetStore.refused", { reason: describeError(error) }),
          });
        }
        return true;
      },
    });
    late.saver = saver;
    return { saver, sync };
  }, [client, toasts]);

  useEffect(() => {
    if (!status.failing && status.pending === 0) toasts.dismiss("save-failed");
  }, [status, toasts]);

  useEffect(() => {
    // Leaving the page with changes in the quiet period: send them now, with keepalive, and ask.
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!saver.hasPending()) return;
      void saver.flush({ keepalive: true });
      if (saver.status().failing) event.preventDefault();
    };
    const onHidden = () => {
      if (document.visibilityState === "hidden" && saver.hasPending()) void saver.flush({ keepalive: true });
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("visibilitychange", onHidden);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("visibilitychange", onHidden);
      saver.dispose();
    };
  }, [saver]);

  const store = useMemo<WidgetStore>(() => {
    const patchCache = (dashboardId: string, fn: (list: Widget[]) => Widget[]) =>
      client.setQueryData<Widget[]>(keys.widgets(dashboardId), (list) => (list ? fn(list) : list));
    // Before a local change: the server version it is made on is remembered (widget-sync.ts).
    const track = (dashboardId: string, ids: Iterable<string>) => {
      const wanted = new Set(ids);
      for (const w of client.getQueryData<Widget[]>(keys.widgets(dashboardId)) ?? [])
        if (wanted.has(w.id)) sync.track(w);
    };
    const store: WidgetStore = {
      saver,
      sync,
      updateConfig(dashboardId, id, next) {
        track(dashboardId, [id]);
        let config: Record<string, unknown> | null = null;
        patchCache(dashboardId, (list) =>
          list.map((w) => {
            if (w.id !== id) return w;
            config = next(w.config);
            return { ...w, config };
          }),
        );
        if (config) saver.queue(id, { config });
        return config;
      },
      patchConfig(dashboardId, id, build, next) {
        if (!sync.patch(dashboardId, id, build)) store.updateConfig(dashboardId, id, next);
      },
      saveConfig(widget, config, revision) {
        return sync.saveConfig(widget, config, revision);
      },
      setCells(dashboardId, changes) {
        track(
          dashboardId,
          changes.map((c) => c.id),
        );
        const patches = new Map<string, { geometry?: Geometry; config?: Record<string, unknown> }>();
        patchCache(dashboardId, (list) =>
          list.map((widget) => {
            let next = widget;
            for (const change of changes) {
              if (change.id !== widget.id) continue;
              if (change.breakpoint === "xl") {
                const geometry = pixelsOfCell(change.cell);
                next = { ...next, ...geometry };
                patches.set(widget.id, { ...patches.get(widget.id), geometry });
              } else {
                const stored = (next.config as Record<string, unknown>)[LAYOUT_KEY];
                const layout = { ...(isRecord(stored) ? stored : {}), [change.breakpoint]: change.cell };
                const config = { ...next.config, [LAYOUT_KEY]: layout };
                next = { ...next, config };
                patches.set(widget.id, { ...patches.get(widget.id), config });
              }
            }
            return next;
          }),
        );
        for (const [id, patch] of patches) saver.queue(id, patch);
      },
      async create(input) {
        const widget = await api.widgets.create(input);
        patchCache(input.dashboardId, (list) => [...list.filter((w) => w.id !== widget.id), widget]);
        return widget;
      },
      async remove(dashboardId, id) {
        const list = client.getQueryData<Widget[]>(keys.widgets(dashboardId)) ?? [];
        const widget = list.find((w) => w.id === id);
        if (!widget) throw new Error(t("lib.widgetStore.gone"));
        saver.forget(id);
        sync.forget(id);
        patchCache(dashboardId, (current) => current.filter((w) => w.id !== id));
        try {
          await api.widgets.remove(id);
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) return widget;
          sync.revive(id);
          patchCache(dashboardId, (current) =>
            current.some((w) => w.id === id) ? current : [...current, widget],
          );
          throw error;
        }
        return widget;
      },
      retry() {
        void saver.flush();
      },
    };
    return store;
  }, [client, saver, sync]);

  return (
    <StoreContext.Provider value={store}>
      <StatusContext.Provider value={status}>{children}</StatusContext.Provider>
    </StoreContext.Provider>
  );
}

/** The store, or null outside its provider (the public page, a card drawn on its own). */
export function useOptionalWidgetStore(): WidgetStore | null {
  return useContext(StoreContext);
}

export function useWidgetStore(): WidgetStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error("useWidgetStore outside WidgetStoreProvider");
  return store;
}

export function useSaveStatus(): SaverStatus {
  return useContext(StatusContext);
}
