import { lazy } from "react";
import { useTranslation } from "react-i18next";
import { t as translate } from "../../../web/i18n/i18n";
import { defineWidget } from "../../../web/widget-kit/types";
import { qbittorrentWidget as contract } from "../contract";
import "./qbittorrent.css";

/** The picker's sample: speeds, the same in every language. */
const SAMPLE_DOWN = "↓ 5.8 MiB/s";
const SAMPLE_UP = "↑ 1.3 MiB/s";

function QbittorrentPreview() {
  const { t } = useTranslation();
  return (
    <div className="preview preview-qbt" aria-hidden="true">
      <span>{SAMPLE_DOWN}</span>
      <span>{SAMPLE_UP}</span>
      <span className="qbt-bar">
        <span style={{ width: "62%" }} />
      </span>
      <span>{t("widgets.qBittorrent.states.downloading")}</span>
    </div>
  );
}

export default defineWidget(contract, {
  group: "data",
  words: (t) => ({ name: t("widgets.qBittorrent.name"), description: t("widgets.qBittorrent.description") }),
  keywords: ["qbittorrent", "torrent", "download", "bittorrent", "seeding", "homelab"],
  icon: "download",
  defaultSize: { columns: 6, rows: 26 },
  minSize: { columns: 3, rows: 8 },
  Component: lazy(() => import("./View")),
  settings: [
    lazy(() => import("./Settings")),
    {
      key: "torrentsShown",
      label: () => translate("widgets.qBittorrent.torrentsShown.label"),
      hint: () => translate("widgets.qBittorrent.torrentsShown.hint"),
    },
  ],
  Preview: QbittorrentPreview,
});
