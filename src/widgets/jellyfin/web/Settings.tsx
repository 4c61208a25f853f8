import { useTranslation } from "react-i18next";
import { useSettingsRoute } from "../../../web/app/settings-route";
import { useIntegrations } from "../../../web/integrations/integrations-api";
import { Field } from "../../../web/ui/fields";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import type { JellyfinConfig } from "../contract";
import { useJellyfinUsers } from "./api";

/**
 * The Jellyfin widget's integration and the user whose latest additions it shows (an API key
 * belongs to no user; their libraries and parental limits apply), from Jellyfin's own list.
 */
export default function JellyfinSettings({ config, onChange }: WidgetSettingsProps<JellyfinConfig>) {
  const { t } = useTranslation();
  const integrations = useIntegrations();
  const settings = useSettingsRoute();
  const list = (integrations.data ?? []).filter((i) => i.kind === "jellyfin");
  const chosen = list.find((i) => i.id === config.integrationId);
  const users = useJellyfinUsers(chosen ? config.integrationId : undefined);

  const setIntegration = (id: string) => {
    const { integrationId: _old, userId: _user, ...rest } = config;
    onChange(id ? { ...rest, integrationId: id } : rest);
  };
  const setUser = (id: string) => {
    const { userId: _old, ...rest } = config;
    onChange(id ? { ...rest, userId: id } : rest);
  };

  if (integrations.isSuccess && list.length === 0 && !config.integrationId)
    return (
      <p className="field-hint">
        {t("widgets.jellyfin.settings.none")}{" "}
        <button type="button" className="jf-link" onClick={() => settings.open("integrations")}>
          {t("widgets.jellyfin.settings.openIntegrations")}
        </button>
      </p>
    );
  const known = users.data ?? [];
  return (
    <div className="jf-settings">
      <Field label={t("widgets.jellyfin.settings.integration")}>
        {(id) => (
          <select id={id} value={config.integrationId ?? ""} onChange={(e) => setIntegration(e.target.value)}>
            {!config.integrationId && <option value="">{t("widgets.jellyfin.settings.choose")}</option>}
            {config.integrationId && !chosen && (
              <option value={config.integrationId}>
                {t("widgets.jellyfin.settings.unknownIntegration")}
              </option>
            )}
            {list.map((integration) => (
              <option key={integration.id} value={integration.id}>
                {integration.owner === "instance"
                  ? t("widgets.jellyfin.settings.shared", { name: integration.name })
                  : integration.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      {chosen && (
        <Field
          label={t("widgets.jellyfin.settings.user")}
          hint={
            users.isError
              ? t("widgets.jellyfin.settings.usersFailed")
              : t("widgets.jellyfin.settings.userHint")
          }
        >
          {(id, describedBy) => (
            <select
              id={id}
              aria-describedby={describedBy}
              value={config.userId ?? ""}
              disabled={users.isPending}
              onChange={(e) => setUser(e.target.value)}
            >
              <option value="">{t("widgets.jellyfin.settings.firstAdmin")}</option>
              {config.userId && !known.some((u) => u.id === config.userId) && (
                <option value={config.userId}>{t("widgets.jellyfin.settings.unknownUser")}</option>
              )}
              {known.map((user) => (
                <option key={user.id} value={user.id}>
                  {user.admin ? t("widgets.jellyfin.settings.admin", { name: user.name }) : user.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
    </div>
  );
}
