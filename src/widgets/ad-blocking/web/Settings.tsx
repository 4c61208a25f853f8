import { useTranslation } from "react-i18next";
import {
  IntegrationSelect,
  NoIntegration,
  useIntegrationsOf,
  withIntegration,
} from "../../../web/widget-kit/settings/IntegrationPicker";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import { AD_BLOCKING_KINDS, type AdBlockingConfig, type AdBlockingKind } from "../contract";
import { KIND_LABELS } from "./logic";

/**
 * The Ad Blocking widget's settings: which Pi-hole or AdGuard Home integration it shows (each
 * named with its service), or where to make one. Loaded when the settings open.
 */
export default function AdBlockingSettings({ config, onChange }: WidgetSettingsProps<AdBlockingConfig>) {
  const { t } = useTranslation();
  const { list, loaded } = useIntegrationsOf(AD_BLOCKING_KINDS);
  const chosen = list.find((i) => i.id === config.integrationId);
  const words = {
    label: t("widgets.adBlocking.settings.integration"),
    none: t("widgets.adBlocking.settings.none"),
    openIntegrations: t("widgets.adBlocking.settings.openIntegrations"),
    choose: t("widgets.adBlocking.settings.choose"),
    unknown: t("widgets.adBlocking.settings.unknownIntegration"),
    shared: (name: string) => t("widgets.adBlocking.settings.shared", { name }),
  };
  if (loaded && list.length === 0 && !config.integrationId) return <NoIntegration words={words} />;
  return (
    <IntegrationSelect
      list={list}
      value={config.integrationId}
      onChange={(id) => onChange(withIntegration(config, id))}
      words={words}
      hint={chosen && !chosen.allowActions ? t("widgets.adBlocking.settings.actionsOff") : undefined}
      name={(integration) => `${integration.name} (${KIND_LABELS[integration.kind as AdBlockingKind]})`}
    />
  );
}
