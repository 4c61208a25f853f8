import { type ReactNode, useEffect, useRef } from "react";
import { Icon, type IconName } from "./icons";

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

/** The button that opens a popover and says whether it is open. */
export function PopoverTrigger({
  open,
  className,
  label,
  onClick,
  children,
}: {
  open: boolean;
  className: string;
  label?: string;
  onClick(): void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={className}
      aria-haspopup="true"
      aria-expanded={open}
      aria-label={label}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

/** One action in a popover menu: an icon, its label, and anything after it (a badge). */
export function MenuItem({
  icon,
  label,
  danger = false,
  onClick,
  children,
}: {
  icon: IconName;
  label: string;
  danger?: boolean;
  onClick(): void;
  children?: ReactNode;
}) {
  return (
    <button type="button" className={danger ? "menu-item danger" : "menu-item"} onClick={onClick}>
      <Icon name={icon} size={15} /> {label}
      {children}
    </button>
  );
}
