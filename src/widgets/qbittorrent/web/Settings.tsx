import { useTranslation } from "react-i18next";
import { useSettingsRoute } from "../../../web/app/settings-route";
import { useIntegrations } from "../../../web/integrations/integrations-api";
import { Field } from "../../../web/ui/fields";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import type { QbittorrentConfig } from "../contract";

/** The qBittorrent widget's integration: one of the caller's own or the instance's. */
export default function QbittorrentSettings({ config, onChange }: WidgetSettingsProps<QbittorrentConfig>) {
  const { t } = useTranslation();
  const integrations = useIntegrations();
  const settings = useSettingsRoute();
  const list = (integrations.data ?? []).filter((i) => i.kind === "qbittorrent");
  const chosen = list.find((i) => i.id === config.integrationId);

  const setIntegration = (id: string) => {
    const { integrationId: _old, ...rest } = config;
    onChange(id ? { ...rest, integrationId: id } : rest);
  };

  if (integrations.isSuccess && list.length === 0 && !config.integrationId)
    return (
      <p className="field-hint">
        {t("widgets.qBittorrent.settings.none")}{" "}
        <button type="button" className="qbt-link" onClick={() => settings.open("integrations")}>
          {t("widgets.qBittorrent.settings.openIntegrations")}
        </button>
      </p>
    );
  return (
    <Field label={t("widgets.qBittorrent.settings.integration")}>
      {(id) => (
        <select id={id} value={config.integrationId ?? ""} onChange={(e) => setIntegration(e.target.value)}>
          {!config.integrationId && <option value="">{t("widgets.qBittorrent.settings.choose")}</option>}
          {config.integrationId && !chosen && (
            <option value={config.integrationId}>
              {t("widgets.qBittorrent.settings.unknownIntegration")}
            </option>
          )}
          {list.map((integration) => (
            <option key={integration.id} value={integration.id}>
              {integration.owner === "instance"
                ? t("widgets.qBittorrent.settings.shared", { name: integration.name })
                : integration.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
