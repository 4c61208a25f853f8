import { useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from "react";
import { type Cell, LAYOUT_KEY } from "../../contract/layout";
import type { CreateWidgetInput, Widget } from "../../contract/resources";
import { type Breakpoint, pixelsOfCell } from "../grid/geometry";
import { type Geometry, type SaverStatus, WidgetSaver } from "../grid/saver";
import { t } from "../i18n/i18n";
import { useToasts } from "../ui/Toasts";
import { ApiError, api, describeError } from "./api";
import { isRecord } from "./parse";
import { keys } from "./queries";

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
  setCells(dashboardId: string, changes: CellChange[]): void;
  create(input: CreateWidgetInput): Promise<Widget>;
  remove(dashboardId: string, id: string): Promise<Widget>;
  retry(): void;
  saver: WidgetSaver;
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
 * carries those edits to the server in the background. The cache is never overwritten by a save
 * answer, so typing ahead of a slow request is safe.
 */
export function WidgetStoreProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const toasts = useToasts();
  const [status, setStatus] = useState<SaverStatus>({ pending: 0, failing: false, lastError: null });

  const saver = useMemo(
    () =>
      new WidgetSaver({
        send: (body, options) => api.widgets.update(body, options),
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
      }),
    [toasts],
  );

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
    return {
      saver,
      updateConfig(dashboardId, id, next) {
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
      setCells(dashboardId, changes) {
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
        patchCache(dashboardId, (current) => current.filter((w) => w.id !== id));
        try {
          await api.widgets.remove(id);
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) return widget;
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
  }, [client, saver]);

  return (
    <StoreContext.Provider value={store}>
      <StatusContext.Provider value={status}>{children}</StatusContext.Provider>
    </StoreContext.Provider>
  );
}

export function useWidgetStore(): WidgetStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error("useWidgetStore outside WidgetStoreProvider");
  return store;
}

export function useSaveStatus(): SaverStatus {
  return useContext(StatusContext);
}
