import { useTranslation } from "react-i18next";
import { Field } from "../../../web/ui/fields";
import {
  IntegrationSelect,
  NoIntegration,
  useIntegrationsOf,
  withIntegration,
} from "../../../web/widget-kit/settings/IntegrationPicker";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import type { JellyfinConfig } from "../contract";
import { useJellyfinUsers } from "./api";

/** The integration kinds the widget reads. */
const JELLYFIN_KINDS = ["jellyfin"];

/**
 * The Jellyfin widget's integration and the user whose latest additions it shows (an API key
 * belongs to no user; their libraries and parental limits apply), from Jellyfin's own list.
 */
export default function JellyfinSettings({ config, onChange }: WidgetSettingsProps<JellyfinConfig>) {
  const { t } = useTranslation();
  const { list, loaded } = useIntegrationsOf(JELLYFIN_KINDS);
  const chosen = list.find((i) => i.id === config.integrationId);
  const users = useJellyfinUsers(chosen ? config.integrationId : undefined);
  const words = {
    label: t("widgets.jellyfin.settings.integration"),
    none: t("widgets.jellyfin.settings.none"),
    openIntegrations: t("widgets.jellyfin.settings.openIntegrations"),
    choose: t("widgets.jellyfin.settings.choose"),
    unknown: t("widgets.jellyfin.settings.unknownIntegration"),
    shared: (name: string) => t("widgets.jellyfin.settings.shared", { name }),
  };

  // Another server has other users: the chosen one is dropped with the integration.
  const setIntegration = (id: string) => {
    const { userId: _user, ...rest } = config;
    onChange(withIntegration(rest, id));
  };
  const setUser = (id: string) => {
    const { userId: _old, ...rest } = config;
    onChange(id ? { ...rest, userId: id } : rest);
  };

  if (loaded && list.length === 0 && !config.integrationId) return <NoIntegration words={words} />;
  const known = users.data ?? [];
  return (
    <div className="jf-settings">
      <IntegrationSelect list={list} value={config.integrationId} onChange={setIntegration} words={words} />
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
