import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../web/ui/ConfirmDialog";
import { Icon } from "../../../web/ui/icons";
import { useToasts } from "../../../web/ui/Toasts";
import { IntegrationFrame } from "../../../web/widget-kit/data/IntegrationFrame";
import { type IntegrationEnvelope, useIntegrationData } from "../../../web/widget-kit/data/integration-data";
import type { WidgetProps } from "../../../web/widget-kit/types";
import {
  dockerWidget as contract,
  type DockerAction,
  type DockerActionResult,
  type DockerConfig,
  type DockerContainer,
  type DockerData,
} from "../contract";
import { AppTiles } from "./AppTiles";
import { runDockerAction } from "./api";
import { ContainerRows } from "./ContainerRows";
import { actionFailure, describeDockerError } from "./logic";

/** Stop and restart interrupt whoever uses the container: they are asked about first. */
interface Asking {
  container: DockerContainer;
  action: "stop" | "restart";
}

function doneWords(t: ReturnType<typeof useTranslation>["t"], action: DockerAction, name: string) {
  return action === "start"
    ? t("widgets.docker.done.start", { name })
    : action === "stop"
      ? t("widgets.docker.done.stop", { name })
      : t("widgets.docker.done.restart", { name });
}

function Containers({
  widgetId,
  config,
  data,
  queryKey,
  readOnly,
}: {
  widgetId: string;
  config: DockerConfig;
  data: DockerData;
  queryKey: QueryKey;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const toasts = useToasts();
  const [asking, setAsking] = useState<Asking | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);

  /** The answer's state at once, then the engine's own on the next read. */
  const applied = (result: DockerActionResult, action: DockerAction) => {
    client.setQueryData<IntegrationEnvelope<DockerData>>(queryKey, (old) =>
      old
        ? {
            ...old,
            data: {
              ...old.data,
              containers: old.data.containers.map((c) =>
                c.id === result.id
                  ? {
                      ...c,
                      state: result.state,
                      health: result.health,
                      startedAt: result.startedAt,
                      stats: result.state === "running" ? c.stats : null,
                    }
                  : c,
              ),
            },
          }
        : old,
    );
    void client.invalidateQueries({ queryKey });
    toasts.show({ tone: "success", message: doneWords(t, action, result.name) });
  };

  const act = async (container: DockerContainer, action: DockerAction) => {
    setBusyId(container.id);
    try {
      const { result } = await runDockerAction(widgetId, action, container.id);
      applied(result, action);
    } finally {
      setBusyId(null);
    }
  };

  const start = useMutation({
    mutationFn: (container: DockerContainer) => act(container, "start"),
    onError: (error, container) =>
      toasts.show({
        tone: "error",
        key: `docker-action-${widgetId}`,
        message: t("widgets.docker.actionFailed", { name: container.name, reason: actionFailure(error) }),
      }),
  });

  const editing = !readOnly;
  const more = data.total - data.containers.length;
  const apps = config.display === "apps";
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: its own scroll region, so the keyboard reaches rows past the card's height (WCAG 2.1.1), as a viewer has no control inside to tab to.
    <section className="docker" tabIndex={0} aria-label={t("widgets.docker.listLabel")}>
      {data.containers.length === 0 ? (
        <p className="muted docker-none">
          {apps ? t("widgets.docker.noApps") : t("widgets.docker.noContainers")}
        </p>
      ) : apps ? (
        <AppTiles containers={data.containers} />
      ) : (
        <ContainerRows
          containers={data.containers}
          stats={config.stats}
          actions={editing && data.actions}
          busyId={busyId}
          onAction={(container, action) => {
            if (action === "start") start.mutate(container);
            else setAsking({ container, action });
          }}
        />
      )}
      {more > 0 && <p className="docker-more">{t("widgets.docker.more", { count: more })}</p>}
      {editing && !apps && !data.actions && data.containers.length > 0 && (
        <p className="docker-hint" role="note">
          <Icon name="shield" size={13} /> {t("widgets.docker.actionsOff")}
        </p>
      )}
      {asking && (
        <ConfirmDialog
          title={
            asking.action === "stop"
              ? t("widgets.docker.confirm.stopTitle", { name: asking.container.name })
              : t("widgets.docker.confirm.restartTitle", { name: asking.container.name })
          }
          description={
            asking.action === "stop" ? t("widgets.docker.confirm.stop") : t("widgets.docker.confirm.restart")
          }
          confirmLabel={
            asking.action === "stop"
              ? t("widgets.docker.confirm.stopButton")
              : t("widgets.docker.confirm.restartButton")
          }
          busyLabel={
            asking.action === "stop"
              ? t("widgets.docker.confirm.stopping")
              : t("widgets.docker.confirm.restarting")
          }
          describe={actionFailure}
          onClose={() => setAsking(null)}
          onConfirm={() => act(asking.container, asking.action)}
        />
      )}
    </section>
  );
}

export default function DockerView({ widget, config, readOnly, openSettings }: WidgetProps<DockerConfig>) {
  const { t } = useTranslation();
  const data = useIntegrationData<DockerData>({
    widget,
    asks: contract.data.visitorQuery(config),
    name: "docker",
    refreshMs: config.refreshSeconds * 1000,
  });
  return (
    <IntegrationFrame
      data={data}
      readOnly={readOnly}
      openSettings={openSettings}
      empty={{
        icon: "layout",
        text: t("widgets.docker.empty"),
        readOnlyText: t("widgets.docker.emptyReadOnly"),
        setUp: t("widgets.docker.setUp"),
      }}
      errorTitle={t("widgets.docker.couldNotLoad")}
      describeError={describeDockerError}
      label={t("widgets.docker.dataLabel")}
      upstream={{ service: "Docker" }}
    >
      {(shown) => (
        <Containers
          widgetId={widget.id}
          config={config}
          data={shown}
          queryKey={data.queryKey}
          readOnly={readOnly}
        />
      )}
    </IntegrationFrame>
  );
}
