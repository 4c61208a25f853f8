import {
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  type RefObject,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { useTranslation } from "react-i18next";
import type { Widget } from "../../contract/resources";
import { t as translate } from "../i18n/i18n";
import type { AppSettings } from "../lib/app-settings";
import { definitionFor, widgetName } from "../widget-kit/registry";
import {
  moveCompacted,
  resizeCompacted,
  shownLayout,
  stepMoveCompacted,
  stepResizeCompacted,
  toStore,
} from "./compaction";
import {
  type Breakpoint,
  type BreakpointSpec,
  bottom,
  breakpointFor,
  type Cell,
  cellOfPixels,
  changedIds,
  type Direction,
  type Layout,
  ROW_PX,
  readingOrder,
} from "./geometry";
import { layoutItemOf } from "./items";
import { type DragMode, WidgetCard } from "./WidgetCard";

/** One widget's new cell at one breakpoint, with the cell it had on screen before (for undo). */
export interface LayoutChange {
  id: string;
  breakpoint: Breakpoint;
  before: Cell;
  after: Cell;
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The grid's width, measured, following the window. 0 until measured. */
export function useGridWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.getBoundingClientRect().width);
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(entry.contentRect.width);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** The breakpoint for a width and every widget's cell there, compacted (compaction.ts). */
export function useResponsiveLayout(widgets: readonly Widget[], width: number) {
  const items = useMemo(() => widgets.map(layoutItemOf), [widgets]);
  const spec = breakpointFor(width);
  const layout = useMemo(() => shownLayout(items, spec), [items, spec]);
  const columnWidth = width > 0 ? width / spec.columns : 0;
  return { items, spec, layout, columnWidth };
}

export function cellBox(cell: Cell, columnWidth: number): Box {
  return { x: cell.x * columnWidth, y: cell.y * ROW_PX, w: cell.w * columnWidth, h: cell.h * ROW_PX };
}

const boxStyle = (b: Box): CSSProperties => ({
  transform: `translate(${b.x}px, ${b.y}px)`,
  width: b.w,
  height: b.h,
});

/** One widget's place on the canvas, drawn at `box`; its cell is told in data attributes (tests, CSS). */
export function GridItem({
  cell,
  box,
  className,
  children,
}: {
  cell: Cell;
  box: Box;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      className={className ? `grid-item ${className}` : "grid-item"}
      style={boxStyle(box)}
      data-col={cell.x}
      data-row={cell.y}
      data-cols={cell.w}
      data-rows={cell.h}
    >
      {children}
    </div>
  );
}

/** The lattice drawn behind the widgets while editing. */
export const latticeStyle = (columnWidth: number, height: number): CSSProperties =>
  ({ height, "--grid-column": `${columnWidth}px`, "--grid-row": `${ROW_PX}px` }) as CSSProperties;

const ARROWS: Record<string, Direction> = {
  ArrowLeft: { x: -1, y: 0 },
  ArrowRight: { x: 1, y: 0 },
  ArrowUp: { x: 0, y: -1 },
  ArrowDown: { x: 0, y: 1 },
};

interface Active {
  id: string;
  mode: DragMode;
  /** The layout when the gesture began: every preview is computed from it. */
  start: Layout;
  startBox: Box;
  /** Pointer position inside the widget when the drag began. */
  grab: { x: number; y: number };
  origin: { x: number; y: number };
  /** Where the card is drawn now (it follows the pointer). */
  box: Box;
  /** Where everything lands if the pointer is let go now. */
  preview: Layout;
  moved: boolean;
}

interface GridProps {
  widgets: Widget[];
  settings: AppSettings;
  /** Layout editing (drag, resize, keyboard moves, remove) is on: "Edit layout". */
  editing: boolean;
  onLayout(changes: LayoutChange[]): void;
  onConfig(id: string, next: (raw: unknown) => Record<string, unknown>): Record<string, unknown> | null;
  onRemove(id: string, viaKeyboard: boolean): void;
  onOpenSettings(id: string): void;
  /**
   * Someone who may only look (a viewer of a shared dashboard): every card is drawn read-only, with
   * no controls, and nothing moves; `editing` is ignored.
   */
  readOnly?: boolean;
}

const nameOf = (widgets: readonly Widget[], id: string) => {
  const widget = widgets.find((w) => w.id === id);
  return widget ? widgetName(widget.widgetType, translate) : translate("grid.widget");
};

/** Who a breakpoint's layout is for ("laptops"), in the reader's language. */
export function breakpointLabel(name: Breakpoint): string {
  switch (name) {
    case "xl":
      return translate("grid.breakpoints.xl");
    case "lg":
      return translate("grid.breakpoints.lg");
    case "md":
      return translate("grid.breakpoints.md");
    case "sm":
      return translate("grid.breakpoints.sm");
  }
}

/** "column 2, row 3, 6 columns by 4 rows". */
export function describeCell(cell: Cell): string {
  return translate("grid.cell", {
    column: cell.x + 1,
    row: cell.y + 1,
    columns: translate("grid.columns", { count: cell.w }),
    rows: translate("grid.rows", { count: cell.h }),
  });
}

/** What the live region says after a widget moved or was resized by pointer or keyboard. */
export function describeChange(
  name: string,
  verb: "moved" | "resized",
  cell: Cell,
  breakpoint: Breakpoint,
  others: readonly string[],
  raised: readonly string[] = [],
): string {
  const where = describeCell(cell);
  const main =
    breakpoint === "xl"
      ? verb === "moved"
        ? translate("grid.announce.moved", { name, where })
        : translate("grid.announce.resized", { name, where })
      : verb === "moved"
        ? translate("grid.announce.movedAt", { name, where, breakpoint: breakpointLabel(breakpoint) })
        : translate("grid.announce.resizedAt", { name, where, breakpoint: breakpointLabel(breakpoint) });
  return [
    main,
    others.length ? translate("grid.announce.pushedAside", { names: others.join(", ") }) : "",
    raised.length ? translate("grid.announce.closedUp", { names: raised.join(", ") }) : "",
  ]
    .filter(Boolean)
    .join(" ");
}

/**
 * The dashboard: widgets on a grid whose columns follow the window (see geometry.ts). While
 * "Edit layout" is on, a widget's header drags it, its corner resizes it and the arrow keys on
 * its handle move it (Shift resizes); the widgets in the way move aside and all slide up, so no
 * hole remains (compaction.ts). Each change is announced, and saved for the breakpoint it was
 * made at.
 */
export function Grid({
  widgets,
  settings,
  editing: editingLayout,
  onLayout,
  onConfig,
  onRemove,
  onOpenSettings,
  readOnly = false,
}: GridProps) {
  const { t } = useTranslation();
  const editing = editingLayout && !readOnly;
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLDivElement>(null);
  const width = useGridWidth(wrapRef);
  const { items, spec, layout, columnWidth } = useResponsiveLayout(widgets, width);
  const [active, setActive] = useState<Active | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const [feedback, setFeedback] = useState<{ id: string; cell: Cell } | null>(null);
  // Cards in reading order of the layout, so Tab goes row by row as the eye does (not in the
  // order the widgets were added). The layout as placed, not a drag's preview: a card is not
  // moved in the page while the pointer holds it.
  const ordered = useMemo(
    () =>
      readingOrder(widgets.map((w) => ({ id: w.id, cell: layout.get(w.id) ?? cellOfPixels(w), widget: w }))),
    [widgets, layout],
  );

  // Handlers read the latest values through refs, so the memoised widget cards never re-render
  // just because a callback identity changed.
  const latest = useRef({ widgets, items, spec, layout, columnWidth, onLayout });
  latest.current = { widgets, items, spec, layout, columnWidth, onLayout };

  useEffect(() => {
    if (!feedback) return;
    const timer = setTimeout(() => setFeedback(null), 2000);
    return () => clearTimeout(timer);
  }, [feedback]);

  const commit = useCallback((id: string, before: Layout, after: Layout, verb: "moved" | "resized") => {
    const { widgets: list, items: all, spec: current, onLayout: report } = latest.current;
    const moved = changedIds(before, after);
    if (moved.length === 0) return;
    // What is stored for this breakpoint: the pixels at the widest, config.layout below it.
    // Every widget whose stored cell differs is written, so the arrangement stays as shown (and a
    // dashboard stored with holes is stored compacted from its first edit on).
    const changes = toStore(all, current, after)
      .filter((change) => before.has(change.id))
      .map(({ id: changed, breakpoint, cell }) => ({
        id: changed,
        breakpoint,
        before: before.get(changed)!,
        after: cell,
      }));
    if (changes.length > 0) report(changes);
    const cell = after.get(id)!;
    // Widgets that only slid straight up closed a gap; the others made way.
    const slidUp = (other: string) => {
      const [was, now] = [before.get(other), after.get(other)];
      return !!was && !!now && now.x === was.x && now.w === was.w && now.h === was.h && now.y < was.y;
    };
    const others = moved.filter((other) => other !== id);
    setAnnouncement(
      describeChange(
        nameOf(list, id),
        verb,
        cell,
        current.name,
        others.filter((other) => !slidUp(other)).map((other) => nameOf(list, other)),
        others.filter(slidUp).map((other) => nameOf(list, other)),
      ),
    );
    setFeedback({ id, cell });
  }, []);

  const onPointerStart = useCallback(
    (id: string, mode: DragMode, event: PointerEvent<HTMLElement>) => {
      if (event.button !== 0 || !event.isPrimary) return;
      const target = event.target as HTMLElement;
      if (mode === "move" && target.closest("input, textarea, select, a, button:not(.widget-grip)")) return;
      const canvas = canvasRef.current;
      const { layout: start, columnWidth: column, spec: current, widgets: list } = latest.current;
      const cell = start.get(id);
      const widget = list.find((w) => w.id === id);
      if (!canvas || !cell || !widget) return;
      event.preventDefault();

      const { minSize } = definitionFor(widget.widgetType);
      const min = { w: minSize.columns, h: minSize.rows };
      const startBox = cellBox(cell, column);
      const canvasWidth = column * current.columns;
      const local = (e: { clientX: number; clientY: number }) => {
        const box = canvas.getBoundingClientRect();
        return { x: e.clientX - box.left, y: e.clientY - box.top };
      };
      const origin = local(event);
      let state: Active = {
        id,
        mode,
        start,
        startBox,
        grab: { x: origin.x - startBox.x, y: origin.y - startBox.y },
        origin,
        box: startBox,
        preview: start,
        moved: false,
      };
      let frame = 0;
      let lastEvent = { clientX: event.clientX, clientY: event.clientY };
      // The gesture's outcome on any layout: on the one it began on while it runs, on the current
      // one when it ends (someone else moved widgets meanwhile: theirs stay as they are now).
      let aim = (layout: Layout) => layout;
      setActive(state);
      document.body.classList.add("is-dragging");

      const update = (e: { clientX: number; clientY: number }) => {
        lastEvent = e;
        const p = local(e);
        if (!state.moved && Math.hypot(p.x - origin.x, p.y - origin.y) < 4) return;
        if (mode === "move") {
          const box = {
            ...startBox,
            x: Math.min(Math.max(0, p.x - state.grab.x), Math.max(0, canvasWidth - startBox.w)),
            y: Math.max(0, p.y - state.grab.y),
          };
          const targetCell = {
            ...cell,
            x: Math.round(box.x / column),
            y: Math.round(box.y / ROW_PX),
          };
          aim = (layout) => moveCompacted(layout, id, targetCell, current.columns);
          state = { ...state, moved: true, box, preview: aim(start) };
        } else {
          const w = Math.min(Math.max(column, startBox.w + p.x - origin.x), canvasWidth - startBox.x);
          const h = Math.max(ROW_PX, startBox.h + p.y - origin.y);
          const size = { w: Math.round(w / column), h: Math.round(h / ROW_PX) };
          aim = (layout) => resizeCompacted(layout, id, size, min, current.columns);
          state = { ...state, moved: true, box: { ...startBox, w, h }, preview: aim(start) };
        }
        if (!frame) {
          frame = requestAnimationFrame(() => {
            frame = 0;
            setActive(state);
          });
        }
      };

      // Near the window's top or bottom edge the page scrolls, so a widget can travel far.
      const scrollTimer = setInterval(() => {
        const edge = 56;
        const { clientY } = lastEvent;
        const delta = clientY > window.innerHeight - edge ? 14 : clientY < edge ? -14 : 0;
        if (delta !== 0) {
          window.scrollBy(0, delta);
          update(lastEvent);
        }
      }, 30);

      const finish = (apply: boolean) => {
        window.removeEventListener("pointermove", onMove);
        window.removeEventListener("pointerup", onUp);
        window.removeEventListener("pointercancel", onCancel);
        window.removeEventListener("keydown", onKey, true);
        clearInterval(scrollTimer);
        if (frame) cancelAnimationFrame(frame);
        document.body.classList.remove("is-dragging");
        setActive(null);
        const now = latest.current;
        const base = now.layout !== start && now.spec === current ? now.layout : start;
        if (apply && state.moved && base.has(id))
          commit(id, base, base === start ? state.preview : aim(base), mode === "move" ? "moved" : "resized");
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
      const { layout: start, spec: current, widgets: list } = latest.current;
      const widget = list.find((w) => w.id === id);
      if (!direction || !widget) return;
      event.preventDefault();
      const { minSize } = definitionFor(widget.widgetType);
      const after = event.shiftKey
        ? stepResizeCompacted(start, id, direction, { w: minSize.columns, h: minSize.rows }, current.columns)
        : stepMoveCompacted(start, id, direction, current.columns);
      if (after) commit(id, start, after, event.shiftKey ? "resized" : "moved");
      else {
        const cell = start.get(id);
        setAnnouncement(translate("grid.announce.blocked", { name: nameOf(list, id) }));
        if (cell) setFeedback({ id, cell });
      }
    },
    [commit],
  );

  const shown = active?.moved ? active.preview : layout;
  const extent = Math.max(bottom(shown.values()), active ? (active.box.y + active.box.h) / ROW_PX : 0);
  // While editing there is room below the last widget to drag one into.
  const height = (extent + (editing ? 12 : 1)) * ROW_PX;
  const cardProps = { settings, onConfig, onRemove, onOpenSettings, onPointerStart, onKeyboardLayout };

  return (
    <div
      ref={wrapRef}
      className={`grid-wrap${editing ? " is-editing" : ""}`}
      data-breakpoint={spec.name}
      data-columns={spec.columns}
    >
      <div className="visually-hidden" aria-live="polite" data-testid="grid-announcer">
        {announcement}
      </div>
      {width > 0 && (
        <div
          ref={canvasRef}
          className={`grid-canvas${active?.moved ? " is-active" : ""}`}
          style={latticeStyle(columnWidth, height)}
        >
          {active?.moved && (
            <div
              className="grid-placeholder"
              style={boxStyle(cellBox(active.preview.get(active.id)!, columnWidth))}
              aria-hidden="true"
            />
          )}
          {ordered.map(({ widget }) => {
            const cell = shown.get(widget.id) ?? cellOfPixels(widget);
            const isActive = active?.id === widget.id && active.moved;
            const box = isActive ? active.box : cellBox(cell, columnWidth);
            return (
              <GridItem
                key={widget.id}
                cell={cell}
                box={box}
                className={isActive ? `is-${active.mode === "move" ? "moving" : "resizing"}` : undefined}
              >
                {readOnly ? (
                  <WidgetCard widget={widget} mode="view" settings={settings} />
                ) : (
                  <WidgetCard widget={widget} mode="edit" editable={editing} {...cardProps} />
                )}
                {/* Where it is now: a removal or someone else's move may have moved it since. */}
                {feedback?.id === widget.id && (
                  <span className="grid-feedback" aria-hidden="true">
                    {t("grid.feedback", {
                      column: cell.x + 1,
                      row: cell.y + 1,
                      width: cell.w,
                      height: cell.h,
                    })}
                  </span>
                )}
              </GridItem>
            );
          })}
        </div>
      )}
    </div>
  );
}

export type { BreakpointSpec };
