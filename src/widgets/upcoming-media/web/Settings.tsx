import { useId } from "react";
import { useTranslation } from "react-i18next";
import { NoIntegration, useIntegrationsOf } from "../../../web/widget-kit/settings/IntegrationPicker";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import { UPCOMING_INTEGRATIONS_MAX, UPCOMING_KINDS, type UpcomingMediaConfig } from "../contract";

/** The service's name beside the integration's, the same in every language. */
const KIND_LABELS: Record<string, string> = { sonarr: "Sonarr", radarr: "Radarr" };

/**
 * Which Sonarr and Radarr integrations the widget reads: a box each, in the integrations' order.
 * One saved here that the editor cannot see (another person's) stays listed, so it can be unticked.
 */
export default function UpcomingMediaSources({ config, onChange }: WidgetSettingsProps<UpcomingMediaConfig>) {
  const { t } = useTranslation();
  const { list, loaded } = useIntegrationsOf(UPCOMING_KINDS);
  const hint = useId();
  const chosen = new Set(config.integrationIds);
  const unseen = config.integrationIds.filter((id) => !list.some((i) => i.id === id));
  const full = config.integrationIds.length >= UPCOMING_INTEGRATIONS_MAX;
  const toggle = (id: string, on: boolean) =>
    onChange({
      ...config,
      integrationIds: on ? [...config.integrationIds, id] : config.integrationIds.filter((x) => x !== id),
    });

  if (loaded && list.length === 0 && unseen.length === 0)
    return (
      <NoIntegration
        words={{
          none: t("widgets.upcomingMedia.settings.none"),
          openIntegrations: t("widgets.upcomingMedia.settings.openIntegrations"),
        }}
      />
    );
  return (
    <fieldset className="field upcoming-sources" aria-describedby={hint}>
      <legend className="field-label">{t("widgets.upcomingMedia.settings.integrations")}</legend>
      {list.map((integration) => {
        const on = chosen.has(integration.id);
        const name =
          integration.owner === "instance"
            ? t("widgets.upcomingMedia.settings.shared", { name: integration.name })
            : integration.name;
        return (
          <label key={integration.id} className="checkbox-row">
            <input
              type="checkbox"
              checked={on}
              disabled={!on && full}
              onChange={(e) => toggle(integration.id, e.target.checked)}
            />
            {name} <span className="upcoming-kind">{KIND_LABELS[integration.kind]}</span>
          </label>
        );
      })}
      {unseen.map((id) => (
        <label key={id} className="checkbox-row">
          <input type="checkbox" checked onChange={() => toggle(id, false)} />
          {t("widgets.upcomingMedia.settings.unknownIntegration")}
        </label>
      ))}
      <p className="field-hint" id={hint}>
        {t("widgets.upcomingMedia.settings.hint", { max: UPCOMING_INTEGRATIONS_MAX })}
      </p>
    </fieldset>
  );
}
