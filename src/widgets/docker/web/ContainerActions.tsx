import { useTranslation } from "react-i18next";
import type { DockerAction, DockerContainer } from "../contract";
import { ActionGlyph } from "./glyphs";

/** What can be asked of a container in its state: start a stopped one; stop or restart a live one. */
export function actionsFor(container: DockerContainer): DockerAction[] {
  if (!container.found) return [];
  switch (container.state) {
    case "running":
    case "paused":
    case "restarting":
      return ["restart", "stop"];
    case "created":
    case "exited":
      return ["start"];
    default:
      return [];
  }
}

/** A row's buttons, for editors when an admin allows actions: each names its container. */
export function ContainerActions({
  container,
  busy,
  onAction,
}: {
  container: DockerContainer;
  busy: boolean;
  onAction(action: DockerAction): void;
}) {
  const { t } = useTranslation();
  const label = (action: DockerAction) =>
    action === "start"
      ? t("widgets.docker.actions.start", { name: container.name })
      : action === "stop"
        ? t("widgets.docker.actions.stop", { name: container.name })
        : t("widgets.docker.actions.restart", { name: container.name });
  return (
    <span className="docker-actions">
      {actionsFor(container).map((action) => (
        <button
          key={action}
          type="button"
          className={`icon-button small${action === "stop" ? " danger" : ""}`}
          aria-label={label(action)}
          title={label(action)}
          disabled={busy}
          aria-busy={busy || undefined}
          onClick={() => onAction(action)}
        >
          <ActionGlyph action={action} />
        </button>
      ))}
    </span>
  );
}
