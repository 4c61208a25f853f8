import { useTranslation } from "react-i18next";
import { useLocale } from "../../../web/i18n/use-locale";
import { useNow } from "../../../web/lib/use-now";
import type { DockerAction, DockerContainer } from "../contract";
import { ContainerActions } from "./ContainerActions";
import { bytesWords, cpuWords, summaryOf, toneOf } from "./logic";

/** The list: a dot, the name and what state it is in, CPU and memory, and an editor's buttons. */
export function ContainerRows({
  containers,
  stats,
  actions,
  busyId,
  onAction,
}: {
  containers: readonly DockerContainer[];
  stats: boolean;
  /** Whether the buttons are shown: an editor, and an integration that allows actions. */
  actions: boolean;
  busyId: string | null;
  onAction(container: DockerContainer, action: DockerAction): void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const now = useNow(60_000).getTime();
  return (
    <ul className="docker-rows">
      {containers.map((container) => {
        const figures = container.stats;
        return (
          <li
            key={container.id || `missing-${container.name}`}
            className={`docker-row is-${toneOf(container)}`}
            data-container={container.name}
          >
            <span className="docker-dot" aria-hidden="true" />
            <span className="docker-text">
              <span className="docker-name" title={container.image ?? undefined}>
                {container.name}
              </span>
              <span className="docker-meta">{summaryOf(container, now, locale)}</span>
            </span>
            {stats && (
              <span className="docker-figures">
                {figures?.cpuPercent != null && (
                  <span title={t("widgets.docker.cpu")}>
                    <span className="visually-hidden">{t("widgets.docker.cpu")} </span>
                    {cpuWords(figures.cpuPercent, locale)}
                  </span>
                )}
                {figures?.memoryBytes != null && (
                  <span className="docker-memory" title={t("widgets.docker.memory")}>
                    <span className="visually-hidden">{t("widgets.docker.memory")} </span>
                    {bytesWords(figures.memoryBytes, locale)}
                  </span>
                )}
              </span>
            )}
            {actions && (
              <ContainerActions
                container={container}
                busy={busyId === container.id}
                onAction={(action) => onAction(container, action)}
              />
            )}
          </li>
        );
      })}
    </ul>
  );
}
