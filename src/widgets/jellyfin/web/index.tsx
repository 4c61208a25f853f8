import { lazy } from "react";
import { useTranslation } from "react-i18next";
import { t as translate } from "../../../web/i18n/i18n";
import { defineWidget } from "../../../web/widget-kit/types";
import { jellyfinWidget as contract } from "../contract";
import "./jellyfin.css";

/** The picker's sample title and position, the same in every language. */
const SAMPLE_TITLE = "Severance · S2:E3";
const SAMPLE_TIME = "15:00 / 44:00";

function JellyfinPreview() {
  const { t } = useTranslation();
  return (
    <div className="preview preview-jf" aria-hidden="true">
      <span>{SAMPLE_TITLE}</span>
      <span className="jf-bar">
        <span style={{ width: "34%" }} />
      </span>
      <span>
        {t("widgets.jellyfin.playing")} · {SAMPLE_TIME}
      </span>
    </div>
  );
}

export default defineWidget(contract, {
  group: "data",
  words: (t) => ({ name: t("widgets.jellyfin.name"), description: t("widgets.jellyfin.description") }),
  keywords: ["jellyfin", "media", "movies", "tv", "now playing", "streaming", "homelab"],
  icon: "video",
  defaultSize: { columns: 6, rows: 30 },
  minSize: { columns: 3, rows: 8 },
  Component: lazy(() => import("./View")),
  settings: [
    lazy(() => import("./Settings")),
    { key: "showLatest", label: () => translate("widgets.jellyfin.showLatest.label") },
    {
      key: "latestCount",
      label: () => translate("widgets.jellyfin.latestCount.label"),
      hint: () => translate("widgets.jellyfin.latestCount.hint"),
    },
    { key: "showUsers", label: () => translate("widgets.jellyfin.showUsers.label") },
  ],
  Preview: JellyfinPreview,
});
