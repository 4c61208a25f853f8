import { useTranslation } from "react-i18next";
import { useSettingsRoute } from "../../../web/app/settings-route";
import { useIntegrations } from "../../../web/integrations/integrations-api";
import { Field } from "../../../web/ui/fields";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import { AD_BLOCKING_KINDS, type AdBlockingConfig, type AdBlockingKind } from "../contract";
import "./ad-blocking.css";
import { KIND_LABELS } from "./logic";

const isBlocker = (kind: string): kind is AdBlockingKind =>
  (AD_BLOCKING_KINDS as readonly string[]).includes(kind);

/**
 * The Ad Blocking widget's settings: which Pi-hole or AdGuard Home integration it shows (each
 * named with its service), or where to make one. Loaded when the settings open.
 */
export default function AdBlockingSettings({ config, onChange }: WidgetSettingsProps<AdBlockingConfig>) {
  const { t } = useTranslation();
  const integrations = useIntegrations();
  const settings = useSettingsRoute();
  const list = (integrations.data ?? []).filter((i) => isBlocker(i.kind));
  const chosen = list.find((i) => i.id === config.integrationId);
  const setIntegration = (id: string) => {
    const { integrationId: _old, ...rest } = config;
    onChange(id ? { ...rest, integrationId: id } : rest);
  };
  if (integrations.isSuccess && list.length === 0 && !config.integrationId)
    return (
      <p className="field-hint adb-settings-none">
        {t("widgets.adBlocking.settings.none")}{" "}
        <button type="button" className="adb-link" onClick={() => settings.open("integrations")}>
          {t("widgets.adBlocking.settings.openIntegrations")}
        </button>
      </p>
    );
  return (
    <Field
      label={t("widgets.adBlocking.settings.integration")}
      hint={chosen && !chosen.allowActions ? t("widgets.adBlocking.settings.actionsOff") : undefined}
    >
      {(id, describedBy) => (
        <select
          id={id}
          aria-describedby={describedBy}
          value={config.integrationId ?? ""}
          onChange={(e) => setIntegration(e.target.value)}
        >
          {!config.integrationId && <option value="">{t("widgets.adBlocking.settings.choose")}</option>}
          {config.integrationId && !chosen && (
            <option value={config.integrationId}>
              {t("widgets.adBlocking.settings.unknownIntegration")}
            </option>
          )}
          {list.map((integration) => {
            const name = `${integration.name} (${KIND_LABELS[integration.kind as AdBlockingKind]})`;
            return (
              <option key={integration.id} value={integration.id}>
                {integration.owner === "instance" ? t("widgets.adBlocking.settings.shared", { name }) : name}
              </option>
            );
          })}
        </select>
      )}
    </Field>
  );
}
