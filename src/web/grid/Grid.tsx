import {
  type KeyboardEvent,
  type PointerEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import type { Widget } from "../../contract/resources";
import type { AppSettings } from "../lib/app-settings";
import { definitionFor } from "../widgets/registry";
import {
  bottom,
  fitResize,
  moveStep,
  nearestFree,
  type Point,
  type Rect,
  readingOrder,
  STACK_BELOW,
  STEP,
  sameRect,
  snap,
} from "./geometry";
import type { Geometry } from "./saver";
import { type DragMode, WidgetFrame } from "./WidgetFrame";

export interface LayoutChange {
  id: string;
  before: Geometry;
  after: Geometry;
}

interface GridProps {
  widgets: Widget[];
  settings: AppSettings;
  onLayout(changes: LayoutChange[]): void;
  onConfig(id: string, next: (raw: unknown) => Record<string, unknown>): Record<string, unknown> | null;
  onRemove(id: string): void;
  onOpenSettings(id: string): void;
  onWidthChange?(width: number): void;
}

interface Active {
  id: string;
  mode: DragMode;
  start: Rect;
  /** Pointer position inside the widget when the drag began. */
  grab: Point;
  origin: Point;
  /** Where the card is drawn now (follows the pointer). */
  current: Rect;
  /** Where it will land: snapped and free. */
  target: Rect;
  moved: boolean;
}

export const rectOf = (w: Pick<Widget, "positionX" | "positionY" | "width" | "height">): Rect => ({
  x: w.positionX,
  y: w.positionY,
  w: w.width,
  h: w.height,
});
export const geometryOfRect = (r: Rect): Geometry => ({
  positionX: r.x,
  positionY: r.y,
  width: r.w,
  height: r.h,
});

const othersThan = (widgets: readonly Widget[], id: string): Rect[] =>
  widgets.filter((w) => w.id !== id).map((w) => rectOf(w));

const rectStyle = (r: Rect) => ({ transform: `translate(${r.x}px, ${r.y}px)`, width: r.w, height: r.h });

const ARROWS: Record<string, Point> = {
  ArrowLeft: { x: -1, y: 0 },
  ArrowRight: { x: 1, y: 0 },
  ArrowUp: { x: 0, y: -1 },
  ArrowDown: { x: 0, y: 1 },
};

/**
 * The dashboard canvas. Widgets sit at their stored pixel rects; dragging the header moves one,
 * the corner resizes it, both snapping to STEP and never overlapping another. On a narrow
 * screen the same widgets are stacked in reading order instead.
 */
export function Grid({
  widgets,
  settings,
  onLayout,
  onConfig,
  onRemove,
  onOpenSettings,
  onWidthChange,
}: GridProps) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [active, setActive] = useState<Active | null>(null);
  const [announcement, setAnnouncement] = useState("");

  // Handlers read the latest values through refs, so the memoised widget cards never re-render
  // just because a callback identity changed.
  const latest = useRef({ widgets, width, onLayout });
  latest.current = { widgets, width, onLayout };

  useLayoutEffect(() => {
    const wrap = wrapRef.current;
    if (!wrap) return;
    setWidth(wrap.getBoundingClientRect().width);
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(entry.contentRect.width);
    });
    observer.observe(wrap);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (width > 0) onWidthChange?.(width);
  }, [width, onWidthChange]);

  const stacked = width > 0 && width < STACK_BELOW;

  const commit = useCallback((id: string, before: Rect, after: Rect, verb: string) => {
    if (sameRect(before, after)) return;
    latest.current.onLayout([{ id, before: geometryOfRect(before), after: geometryOfRect(after) }]);
    const widget = latest.current.widgets.find((w) => w.id === id);
    const name = widget ? definitionFor(widget.widgetType).name : "Widget";
    setAnnouncement(`${name} ${verb}: ${after.x}, ${after.y}, ${after.w} by ${after.h} pixels`);
  }, []);

  const onPointerStart = useCallback(
    (id: string, mode: DragMode, event: PointerEvent<HTMLElement>) => {
      if (event.button !== 0 || !event.isPrimary) return;
      const target = event.target as HTMLElement;
      if (mode === "move" && target.closest("input, textarea, select, a, button:not(.widget-grip)")) return;
      const canvas = canvasRef.current;
      const widget = latest.current.widgets.find((w) => w.id === id);
      if (!canvas || !widget) return;
      event.preventDefault();

      const min = definitionFor(widget.widgetType).minSize;
      const minSize = { w: min.width, h: min.height };
      const start = rectOf(widget);
      const others = othersThan(latest.current.widgets, id);
      const local = (e: { clientX: number; clientY: number }): Point => {
        const box = canvas.getBoundingClientRect();
        return { x: e.clientX - box.left, y: e.clientY - box.top };
      };
      const origin = local(event);
      let state: Active = {
        id,
        mode,
        start,
        grab: { x: origin.x - start.x, y: origin.y - start.y },
        origin,
        current: start,
        target: start,
        moved: false,
      };
      let frame = 0;
      let scrollTimer: ReturnType<typeof setInterval> | null = null;
      let lastEvent = { clientX: event.clientX, clientY: event.clientY };
      setActive(state);
      document.body.classList.add("is-dragging");

      const update = (e: { clientX: number; clientY: number }) => {
        lastEvent = e;
        const p = local(e);
        if (!state.moved && Math.hypot(p.x - origin.x, p.y - origin.y) < 4) return;
        const canvasWidth = latest.current.width;
        if (mode === "move") {
          const raw = {
            x: Math.max(0, p.x - state.grab.x),
            y: Math.max(0, p.y - state.grab.y),
            w: start.w,
            h: start.h,
          };
          const spot = nearestFree(
            { x: snap(raw.x), y: snap(raw.y), w: start.w, h: start.h },
            others,
            canvasWidth,
          );
          state = { ...state, moved: true, current: raw, target: { ...spot, w: start.w, h: start.h } };
        } else {
          // Never wider than the canvas, unless it already was (laid out on a wider screen).
          const maxW = Math.max(minSize.w, start.w, Math.floor((canvasWidth - start.x) / STEP) * STEP);
          const desired = {
            w: Math.min(maxW, snap(start.w + p.x - origin.x)),
            h: snap(start.h + p.y - origin.y),
          };
          const fit = fitResize(start, desired, others, minSize);
          const size = fit ?? { w: state.target.w, h: state.target.h };
          const next = { ...start, ...size };
          state = { ...state, moved: true, current: next, target: next };
        }
        if (!frame) {
          frame = requestAnimationFrame(() => {
            frame = 0;
            setActive(state);
          });
        }
      };

      // Near the window's top or bottom edge the page scrolls, so a widget can travel far.
      const autoScroll = () => {
        const edge = 56;
        const { clientY } = lastEvent;
        const delta = clientY > window.innerHeight - edge ? 14 : clientY < edge ? -14 : 0;
        if (delta !== 0) {
          window.scrollBy(0, delta);
          update(lastEvent);
        }
      };
      scrollTimer = setInterval(autoScroll, 30);

      const finish = (apply: boolean) => {
        window.removeEventListener("pointermove", onMove);
        window.removeEventListener("pointerup", onUp);
        window.removeEventListener("pointercancel", onCancel);
        window.removeEventListener("keydown", onKey, true);
        if (scrollTimer) clearInterval(scrollTimer);
        if (frame) cancelAnimationFrame(frame);
        document.body.classList.remove("is-dragging");
        setActive(null);
        if (apply && state.moved) commit(id, start, state.target, mode === "move" ? "moved" : "resized");
      };
      const onMove = (e: globalThis.PointerEvent) => update(e);
      const onUp = () => finish(true);
      const onCancel = () => finish(false);
      const onKey = (e: globalThis.KeyboardEvent) => {
        if (e.key === "Escape") {
          e.preventDefault();
          e.stopPropagation();
          finish(false);
        }
      };
      window.addEventListener("pointermove", onMove);
      window.addEventListener("pointerup", onUp);
      window.addEventListener("pointercancel", onCancel);
      window.addEventListener("keydown", onKey, true);
    },
    [commit],
  );

  const onKeyboardLayout = useCallback(
    (id: string, event: KeyboardEvent<HTMLElement>) => {
      const direction = ARROWS[event.key];
      const widget = latest.current.widgets.find((w) => w.id === id);
      if (!direction || !widget) return;
      event.preventDefault();
      const rect = rectOf(widget);
      const others = othersThan(latest.current.widgets, id);
      if (event.shiftKey) {
        const min = definitionFor(widget.widgetType).minSize;
        const desired = { w: rect.w + direction.x * STEP, h: rect.h + direction.y * STEP };
        if (rect.x + desired.w > Math.max(latest.current.width, rect.x + rect.w)) return;
        const fit = fitResize(rect, desired, others, { w: min.width, h: min.height });
        if (fit) commit(id, rect, { ...rect, ...fit }, "resized");
      } else {
        const spot = moveStep(rect, direction, others, latest.current.width);
        if (spot) commit(id, rect, { ...rect, ...spot }, "moved");
      }
    },
    [commit],
  );

  const rects = useMemo(() => widgets.map((w) => rectOf(w)), [widgets]);
  const activeExtent = active
    ? Math.max(active.current.y + active.current.h, active.target.y + active.target.h)
    : 0;
  const height = Math.max(bottom(rects), activeExtent) + STEP * 12;
  // A layout made on a wider screen scrolls sideways inside the grid rather than being cut off.
  const right = rects.reduce((max, r) => Math.max(max, r.x + r.w), 0);

  const frameProps = { settings, onConfig, onRemove, onOpenSettings, onPointerStart, onKeyboardLayout };

  return (
    <div ref={wrapRef} className="grid-wrap">
      <div className="visually-hidden" aria-live="polite">
        {announcement}
      </div>
      {width === 0 ? null : stacked ? (
        <ol className="grid-stack" aria-label="Widgets">
          {readingOrder(widgets.map((w) => ({ id: w.id, rect: rectOf(w), widget: w }))).map(({ widget }) => {
            const min = definitionFor(widget.widgetType).minSize.height;
            return (
              <li
                key={widget.id}
                className="grid-stack-item"
                style={{ height: Math.min(Math.max(widget.height, min), 720) }}
              >
                <WidgetFrame
                  widget={widget}
                  definition={definitionFor(widget.widgetType)}
                  editable={false}
                  {...frameProps}
                />
              </li>
            );
          })}
        </ol>
      ) : (
        <div
          ref={canvasRef}
          className={`grid-canvas${active?.moved ? " is-active" : ""}`}
          style={{ height, minWidth: right, backgroundSize: `${STEP}px ${STEP}px` }}
        >
          {active?.moved && (
            <div className="grid-placeholder" style={rectStyle(active.target)} aria-hidden="true" />
          )}
          {widgets.map((widget) => {
            const isActive = active?.id === widget.id && active.moved;
            const rect = isActive ? active.current : rectOf(widget);
            return (
              <div
                key={widget.id}
                className={`grid-item${isActive ? ` is-${active.mode === "move" ? "moving" : "resizing"}` : ""}`}
                style={rectStyle(rect)}
                data-x={widget.positionX}
                data-y={widget.positionY}
              >
                <WidgetFrame
                  widget={widget}
                  definition={definitionFor(widget.widgetType)}
                  editable
                  {...frameProps}
                />
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}
