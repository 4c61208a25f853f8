import { useTranslation } from "react-i18next";
import { IntegrationPicker, withIntegration } from "../../../web/widget-kit/settings/IntegrationPicker";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import type { QbittorrentConfig } from "../contract";

/** The integration kinds the widget reads. */
const QBITTORRENT_KINDS = ["qbittorrent"];

/** The qBittorrent widget's integration: one of the caller's own or the instance's. */
export default function QbittorrentSettings({ config, onChange }: WidgetSettingsProps<QbittorrentConfig>) {
  const { t } = useTranslation();
  return (
    <IntegrationPicker
      kinds={QBITTORRENT_KINDS}
      value={config.integrationId}
      onChange={(id) => onChange(withIntegration(config, id))}
      words={{
        label: t("widgets.qBittorrent.settings.integration"),
        none: t("widgets.qBittorrent.settings.none"),
        openIntegrations: t("widgets.qBittorrent.settings.openIntegrations"),
        choose: t("widgets.qBittorrent.settings.choose"),
        unknown: t("widgets.qBittorrent.settings.unknownIntegration"),
        shared: (name) => t("widgets.qBittorrent.settings.shared", { name }),
      }}
    />
  );
}
