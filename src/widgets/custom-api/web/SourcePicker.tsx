import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { httpUrl } from "../../../contract/widget-kit/fields";
import { useSettingsRoute } from "../../../web/app/settings-route";
import { useIntegrationKinds, useIntegrations } from "../../../web/integrations/integrations-api";
import { Field } from "../../../web/ui/fields";
import { CUSTOM_API_PATH_MAX, type CustomApiConfig } from "../contract";

const PATH_EXAMPLE = "/api/stats";

/** The service: a saved integration (with a path below its address) or a plain address. */
export function SourcePicker({
  config,
  onChange,
}: {
  config: CustomApiConfig;
  onChange(next: CustomApiConfig): void;
}) {
  const { t } = useTranslation();
  const name = useId();
  const integrations = useIntegrations();
  const kinds = useIntegrationKinds();
  const settings = useSettingsRoute();
  const [mode, setMode] = useState<"integration" | "url">(
    config.url && !config.integrationId ? "url" : "integration",
  );
  const [address, setAddress] = useState(config.url ?? "");
  const kindLabel = (kind: string) => kinds.data?.find((k) => k.kind === kind)?.label ?? kind;
  const list = integrations.data ?? [];
  const addressInvalid = address.trim() !== "" && httpUrl(address) === undefined;

  const choose = (next: "integration" | "url") => {
    setMode(next);
    const { integrationId: _i, url: _u, path: _p, ...rest } = config;
    onChange(next === "url" ? { ...rest, ...(httpUrl(address) ? { url: httpUrl(address) } : {}) } : rest);
  };
  const setIntegration = (id: string) => {
    const { integrationId: _i, url: _u, ...rest } = config;
    onChange(id ? { ...rest, integrationId: id } : rest);
  };
  const setPath = (path: string) => {
    const { path: _p, ...rest } = config;
    onChange(path.trim() ? { ...rest, path: path.trim() } : rest);
  };
  const typeAddress = (text: string) => {
    setAddress(text);
    const url = httpUrl(text);
    const { url: _u, integrationId: _i, path: _p, ...rest } = config;
    onChange(url ? { ...rest, url } : rest);
  };

  return (
    <fieldset className="capi-source">
      <legend className="field-label">{t("widgets.customAPI.source.label")}</legend>
      <div className="radio-row">
        <label className="checkbox-row">
          <input
            type="radio"
            name={name}
            checked={mode === "integration"}
            onChange={() => choose("integration")}
          />
          {t("widgets.customAPI.source.integration")}
        </label>
        <label className="checkbox-row">
          <input type="radio" name={name} checked={mode === "url"} onChange={() => choose("url")} />
          {t("widgets.customAPI.source.url")}
        </label>
      </div>
      {mode === "integration" ? (
        <>
          {integrations.isSuccess && list.length === 0 ? (
            <p className="field-hint">
              {t("widgets.customAPI.source.none")}{" "}
              <button type="button" className="capi-link" onClick={() => settings.open("integrations")}>
                {t("widgets.customAPI.source.openIntegrations")}
              </button>
            </p>
          ) : (
            <Field label={t("widgets.customAPI.source.integrationLabel")}>
              {(id) => (
                <select
                  id={id}
                  value={config.integrationId ?? ""}
                  onChange={(e) => setIntegration(e.target.value)}
                >
                  <option value="">{t("widgets.customAPI.source.choose")}</option>
                  {list.map((integration) => (
                    <option key={integration.id} value={integration.id}>
                      {integration.owner === "instance"
                        ? t("widgets.customAPI.source.optionShared", {
                            name: integration.name,
                            kind: kindLabel(integration.kind),
                          })
                        : t("widgets.customAPI.source.option", {
                            name: integration.name,
                            kind: kindLabel(integration.kind),
                          })}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
          <Field label={t("widgets.customAPI.source.path")} hint={t("widgets.customAPI.source.pathHint")}>
            {(id, describedBy) => (
              <input
                id={id}
                aria-describedby={describedBy}
                placeholder={PATH_EXAMPLE}
                maxLength={CUSTOM_API_PATH_MAX}
                defaultValue={config.path ?? ""}
                onChange={(e) => setPath(e.target.value)}
              />
            )}
          </Field>
        </>
      ) : (
        <Field
          label={t("widgets.customAPI.source.address")}
          hint={t("widgets.customAPI.source.addressHint")}
          error={addressInvalid ? t("widgets.customAPI.source.addressInvalid") : undefined}
        >
          {(id, describedBy) => (
            <input
              id={id}
              type="url"
              inputMode="url"
              aria-describedby={describedBy}
              aria-invalid={addressInvalid || undefined}
              placeholder="https://example.com/api/status.json"
              value={address}
              onChange={(e) => typeAddress(e.target.value)}
            />
          )}
        </Field>
      )}
    </fieldset>
  );
}
