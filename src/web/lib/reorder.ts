import { type DragEvent, type KeyboardEvent, useState } from "react";

const MIME = "application/x-tessera-item";

/** A copy of `items` with the item at `from` moved to `to` (clamped); out-of-range `from` changes nothing. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || from >= items.length) return [...items];
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, item as T);
  return next;
}

/**
 * Reordering a vertical list by drag and drop, with a keyboard equivalent (Alt+↑/↓ on an item's
 * handle). `onMove(from, to)` gets final indexes; nothing is saved while hovering, only on drop.
 */
export function useDragList(count: number, onMove: (from: number, to: number) => void) {
  const [drag, setDrag] = useState<{ from: number; insert: number } | null>(null);

  const finalIndex = (from: number, insert: number) => (insert > from ? insert - 1 : insert);

  const itemProps = (index: number, enabled = true) =>
    enabled
      ? {
          draggable: true,
          onDragStart: (event: DragEvent<HTMLElement>) => {
            event.stopPropagation();
            event.dataTransfer.effectAllowed = "move";
            event.dataTransfer.setData(MIME, String(index));
            setDrag({ from: index, insert: index });
          },
          onDragOver: (event: DragEvent<HTMLElement>) => {
            if (!drag) return;
            event.preventDefault();
            event.dataTransfer.dropEffect = "move";
            const box = event.currentTarget.getBoundingClientRect();
            const insert = event.clientY > box.top + box.height / 2 ? index + 1 : index;
            if (insert !== drag.insert) setDrag({ ...drag, insert });
          },
          onDrop: (event: DragEvent<HTMLElement>) => {
            if (!drag) return;
            event.preventDefault();
            event.stopPropagation();
            const to = finalIndex(drag.from, drag.insert);
            setDrag(null);
            if (to !== drag.from) onMove(drag.from, to);
          },
          onDragEnd: () => setDrag(null),
        }
      : {};

  const handleKeyDown = (index: number) => (event: KeyboardEvent<HTMLElement>) => {
    if (!event.altKey && event.currentTarget.dataset.role !== "handle") return;
    if (event.key === "ArrowUp" && index > 0) {
      event.preventDefault();
      onMove(index, index - 1);
    } else if (event.key === "ArrowDown" && index < count - 1) {
      event.preventDefault();
      onMove(index, index + 1);
    }
  };

  /** CSS class for the drop indicator line above/below an item. */
  const indicator = (index: number): string => {
    if (!drag || finalIndex(drag.from, drag.insert) === drag.from) return "";
    if (drag.insert === index) return "drop-before";
    if (drag.insert === index + 1 && index === count - 1) return "drop-after";
    return "";
  };

  return { itemProps, handleKeyDown, indicator, dragging: drag?.from ?? null };
}
