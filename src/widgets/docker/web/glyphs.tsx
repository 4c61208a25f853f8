import { Icon } from "../../../web/ui/icons";
import type { DockerAction } from "../contract";

/** Start and stop as media players draw them; the app's icon set has neither. */
export function ActionGlyph({ action }: { action: DockerAction }) {
  if (action === "restart") return <Icon name="refresh" size={15} />;
  return (
    <svg width={15} height={15} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {action === "start" ? (
        <path d="M8 5.5v13l10.5-6.5z" fill="currentColor" />
      ) : (
        <rect x="6.5" y="6.5" width="11" height="11" rx="1.5" fill="currentColor" />
      )}
    </svg>
  );
}
