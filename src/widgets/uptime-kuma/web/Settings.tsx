import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSettingsRoute } from "../../../web/app/settings-route";
import { useIntegrations } from "../../../web/integrations/integrations-api";
import { Field } from "../../../web/ui/fields";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import { kumaSlug, type UptimeKumaConfig } from "../contract";

/** A slug as Uptime Kuma makes them, the same in every language. */
const SLUG_EXAMPLE = "home";

/**
 * The Uptime Kuma widget's settings: the integration, and a status page's slug (or its address,
 * pasted) for that page's monitors; left empty, every monitor from the metrics, with the
 * integration's API key.
 */
export function UptimeKumaSettings({ config, onChange }: WidgetSettingsProps<UptimeKumaConfig>) {
  const { t } = useTranslation();
  const integrations = useIntegrations();
  const settings = useSettingsRoute();
  const [typed, setTyped] = useState(config.slug ?? "");
  const list = (integrations.data ?? []).filter((i) => i.kind === "uptimekuma");
  const chosen = list.find((i) => i.id === config.integrationId);
  const invalid = typed.trim() !== "" && kumaSlug(typed) === undefined;

  const setIntegration = (id: string) => {
    const { integrationId: _old, ...rest } = config;
    onChange(id ? { ...rest, integrationId: id } : rest);
  };
  const typeSlug = (text: string) => {
    setTyped(text);
    const { slug: _old, ...rest } = config;
    const slug = kumaSlug(text);
    // What cannot be a slug keeps the saved one until it can.
    if (text.trim() === "") onChange(rest);
    else if (slug) onChange({ ...rest, slug });
  };

  return (
    <div className="kuma-settings">
      {integrations.isSuccess && list.length === 0 && !config.integrationId ? (
        <p className="field-hint">
          {t("widgets.uptimeKuma.settings.none")}{" "}
          <button type="button" className="kuma-link" onClick={() => settings.open("integrations")}>
            {t("widgets.uptimeKuma.settings.openIntegrations")}
          </button>
        </p>
      ) : (
        <Field label={t("widgets.uptimeKuma.settings.integration")}>
          {(id) => (
            <select
              id={id}
              value={config.integrationId ?? ""}
              onChange={(e) => setIntegration(e.target.value)}
            >
              {!config.integrationId && <option value="">{t("widgets.uptimeKuma.settings.choose")}</option>}
              {config.integrationId && !chosen && (
                <option value={config.integrationId}>
                  {t("widgets.uptimeKuma.settings.unknownIntegration")}
                </option>
              )}
              {list.map((integration) => (
                <option key={integration.id} value={integration.id}>
                  {integration.owner === "instance"
                    ? t("widgets.uptimeKuma.settings.shared", { name: integration.name })
                    : integration.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Field
        label={t("widgets.uptimeKuma.settings.slug")}
        hint={
          chosen && !chosen.secrets.includes("apiKey")
            ? t("widgets.uptimeKuma.settings.slugHintNoKey")
            : t("widgets.uptimeKuma.settings.slugHint")
        }
        error={invalid ? t("widgets.uptimeKuma.settings.slugInvalid") : undefined}
      >
        {(id, describedBy) => (
          <input
            id={id}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            placeholder={SLUG_EXAMPLE}
            spellCheck={false}
            autoCapitalize="off"
            value={typed}
            onChange={(e) => typeSlug(e.target.value)}
          />
        )}
      </Field>
    </div>
  );
}
