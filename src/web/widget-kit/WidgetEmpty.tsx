import type { ReactNode } from "react";
import { Icon, type IconName } from "../ui/icons";

/**
 * What a widget shows while it has nothing to show (no feeds chosen, an empty inbox, a visitor's
 * view of an empty list): an optional icon, the words, and what fills it.
 */
export function WidgetEmpty({
  icon,
  text,
  action,
  children,
}: {
  icon?: IconName;
  text: string;
  /** The one button that helps ("Choose coins"); left out where nothing can be changed. */
  action?: { label: string; onClick(): void };
  /** More below the words (several actions, a dialog they open). */
  children?: ReactNode;
}) {
  return (
    <div className="widget-empty">
      {icon && <Icon name={icon} size={22} />}
      <p>{text}</p>
      {action && (
        <button type="button" className="button small" onClick={action.onClick}>
          {action.label}
        </button>
      )}
      {children}
    </div>
  );
}
