import { lazy } from "react";
import { useTranslation } from "react-i18next";
import { t as translate } from "../../../web/i18n/i18n";
import { defineWidget } from "../../../web/widget-kit/types";
import { upcomingMediaWidget as contract } from "../contract";
import "./upcoming-media.css";

/** The picker's sample rows: names and codes, the same in every language. */
const SAMPLE_EPISODE = "Severance · S02E10";
const SAMPLE_DOWNLOAD = "Mickey 17 (2025)";

function UpcomingMediaPreview() {
  const { t } = useTranslation();
  return (
    <div className="preview preview-upcoming" aria-hidden="true">
      <span className="upcoming-preview-time">21:00</span>
      <span>{SAMPLE_EPISODE}</span>
      <span className="upcoming-preview-time">{t("widgets.upcomingMedia.preview.queue")}</span>
      <span>
        {SAMPLE_DOWNLOAD}
        <span className="upcoming-preview-bar" />
      </span>
    </div>
  );
}

export default defineWidget(contract, {
  group: "data",
  words: (t) => ({
    name: t("widgets.upcomingMedia.name"),
    description: t("widgets.upcomingMedia.description"),
  }),
  keywords: ["sonarr", "radarr", "arr", "episodes", "movies", "downloads", "queue", "calendar", "homelab"],
  icon: "video",
  defaultSize: { columns: 6, rows: 24 },
  minSize: { columns: 3, rows: 8 },
  Component: lazy(() => import("./View")),
  settings: [
    lazy(() => import("./Settings")),
    { key: "days", label: () => translate("widgets.upcomingMedia.settings.days") },
    {
      key: "show",
      label: () => translate("widgets.upcomingMedia.settings.show"),
      radio: true,
      options: [
        ["both", () => translate("widgets.upcomingMedia.settings.showBoth")],
        ["calendar", () => translate("widgets.upcomingMedia.settings.showCalendar")],
        ["queue", () => translate("widgets.upcomingMedia.settings.showQueue")],
      ],
    },
  ],
  Preview: UpcomingMediaPreview,
});
