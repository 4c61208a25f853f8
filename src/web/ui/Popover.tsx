import { type ReactNode, useEffect, useRef } from "react";

/**
 * A panel anchored under its trigger: closes on Escape (returning focus to the trigger) and on a
 * click outside. The trigger owns the open state and aria-expanded.
 */
export function Popover({
  open,
  onClose,
  children,
  className = "",
  align = "end",
  label,
}: {
  open: boolean;
  onClose(): void;
  children: ReactNode;
  className?: string;
  align?: "start" | "end";
  label: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      const panel = ref.current;
      const anchor = panel?.parentElement;
      if (anchor && !anchor.contains(event.target as Node)) onClose();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.stopPropagation();
      onClose();
      const trigger = ref.current?.parentElement?.querySelector<HTMLElement>("[aria-expanded]");
      trigger?.focus();
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open, onClose]);
  if (!open) return null;
  return (
    <div ref={ref} className={`popover popover-${align} ${className}`} role="dialog" aria-label={label}>
      {children}
    </div>
  );
}
