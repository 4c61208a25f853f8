import { lazy } from "react";
import { useTranslation } from "react-i18next";
import { t as translate } from "../../../web/i18n/i18n";
import { defineWidget } from "../../../web/widget-kit/types";
import { dockerWidget as contract } from "../contract";
import "./docker.css";

const DockerView = lazy(() => import("./View"));
const DockerSettings = lazy(() => import("./Settings"));

/** The picker's sample containers: names and a figure, the same in every language. */
const SAMPLE_UP = "jellyfin · 25 %";
const SAMPLE_DOWN = "backup";

function DockerPreview() {
  const { t } = useTranslation();
  return (
    <div className="preview preview-docker" aria-hidden="true">
      <span className="docker-preview-row is-good">
        <span className="docker-dot" /> {t("widgets.docker.states.running")}
      </span>
      <span>{SAMPLE_UP}</span>
      <span className="docker-preview-row is-off">
        <span className="docker-dot" /> {t("widgets.docker.states.exited")}
      </span>
      <span>{SAMPLE_DOWN}</span>
    </div>
  );
}

export default defineWidget(contract, {
  group: "data",
  words: (t) => ({ name: t("widgets.docker.name"), description: t("widgets.docker.description") }),
  keywords: ["docker", "podman", "containers", "compose", "apps", "homelab", "server"],
  icon: "layout",
  defaultSize: { columns: 6, rows: 22 },
  minSize: { columns: 3, rows: 6 },
  Component: DockerView,
  settings: [
    DockerSettings,
    {
      key: "display",
      label: () => translate("widgets.docker.display.label"),
      radio: true,
      options: [
        ["list", () => translate("widgets.docker.display.list")],
        ["apps", () => translate("widgets.docker.display.apps")],
      ],
    },
    { key: "stats", label: () => translate("widgets.docker.statsLabel") },
    {
      key: "refreshSeconds",
      label: () => translate("widgets.docker.refresh.label"),
      hint: () => translate("widgets.docker.refresh.hint"),
    },
  ],
  Preview: DockerPreview,
});
