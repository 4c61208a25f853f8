import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { PROVIDER_LABELS, PROVIDERS, type Provider } from "../../contract/providers";
import { browserLanguage, LANGUAGES, languageName } from "../i18n/i18n";
import { IntegrationsTab } from "../integrations/IntegrationsTab";
import { api, describeError, type ProviderStatus } from "../lib/api";
import { connectUrl, refreshProvider } from "../lib/providers";
import { keys, useAppSettings, useUpdateSettings } from "../lib/queries";
import { ApiKeysTab } from "../settings/ApiKeysTab";
import { ProfileTab } from "../settings/ProfileTab";
import { RemindersTab } from "../settings/RemindersTab";
import { SessionsTab } from "../settings/SessionsTab";
import { Dialog } from "../ui/Dialog";
import { Field, TimeZoneSelect } from "../ui/fields";
import { QueryError, Skeleton } from "../ui/States";
import { useToasts } from "../ui/Toasts";
import { SETTINGS_TABS, type SettingsTab as Tab } from "./settings-route";
import { useSettingsTabLabels } from "./settings-tabs";
import { ThemeChoice } from "./ThemeChoice";

function General() {
  const { t } = useTranslation();
  const settings = useAppSettings();
  const update = useUpdateSettings();
  return (
    <div className="settings-section">
      <ThemeChoice legend={t("settings.theme.label")} iconSize={18} />
      <Field label={t("settings.language.label")}>
        {(id) => (
          <select
            id={id}
            value={settings.locale ?? ""}
            onChange={(e) => update.updateConfig({ locale: e.target.value || null })}
          >
            <option value="">
              {t("settings.language.browser", { language: languageName(browserLanguage()) })}
            </option>
            {LANGUAGES.map((code) => (
              <option key={code} value={code} lang={code}>
                {languageName(code)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t("settings.general.hourFormat")}>
        {(id) => (
          <select
            id={id}
            value={settings.hourFormat}
            onChange={(e) => update.updateConfig({ hourFormat: e.target.value as "12" | "24" })}
          >
            <option value="24">{t("settings.general.hours24")}</option>
            <option value="12">{t("settings.general.hours12")}</option>
          </select>
        )}
      </Field>
      <Field label={t("settings.general.timeZone")} hint={t("settings.general.timeZoneHint")}>
        {(id, describedBy) => (
          <TimeZoneSelect
            id={id}
            describedBy={describedBy}
            value={settings.timezone}
            onChange={(timezone) => timezone && update.updateConfig({ timezone })}
          />
        )}
      </Field>
    </div>
  );
}

function Connections() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const toasts = useToasts();
  const providers = useQuery({ queryKey: keys.providers, queryFn: api.providers });
  // Without the providers endpoint, the account list still tells what is connected.
  const accounts = useQuery({
    queryKey: keys.accounts,
    queryFn: api.accounts.list,
    enabled: providers.data === null,
  });
  const disconnect = useMutation({
    mutationFn: (provider: Provider) => api.accounts.disconnect(provider),
    onSuccess: (_account, provider) => {
      refreshProvider(client, provider);
      toasts.show({
        tone: "success",
        message: t("settings.connections.disconnected", { provider: PROVIDER_LABELS[provider] }),
      });
    },
    onError: (e) =>
      toasts.show({
        tone: "error",
        message: t("settings.connections.disconnectFailed", { reason: describeError(e) }),
      }),
  });

  if (providers.isPending || (providers.data === null && accounts.isPending)) {
    return (
      <div className="settings-section">
        {PROVIDERS.map((p) => (
          <Skeleton key={p} height={52} width="100%" />
        ))}
      </div>
    );
  }
  if (providers.isError) return <QueryError query={providers} />;

  const rows: (ProviderStatus & { known: boolean })[] =
    providers.data?.map((p) => ({ ...p, known: true })) ??
    PROVIDERS.map((provider) => ({
      provider,
      label: PROVIDER_LABELS[provider],
      configured: false,
      connected: accounts.data?.some((a) => a.providerId === provider) ?? false,
      reconnectRequired: false,
      known: false,
    }));

  return (
    <div className="settings-section">
      <p className="muted">{t("settings.connections.intro")}</p>
      <ul className="provider-list">
        {rows.map((row) => {
          const label = row.label || PROVIDER_LABELS[row.provider];
          return (
            <li key={row.provider} className="provider-row" data-provider={row.provider}>
              <div>
                <strong>{label}</strong>
                <span className={`status-pill ${row.connected && !row.reconnectRequired ? "is-on" : ""}`}>
                  {row.reconnectRequired
                    ? t("settings.connections.needsReconnect")
                    : row.connected
                      ? t("settings.connections.statusConnected")
                      : row.known && !row.configured
                        ? t("settings.connections.notConfigured")
                        : t("settings.connections.notConnected")}
                </span>
              </div>
              <div className="provider-actions">
                {row.configured && (!row.connected || row.reconnectRequired) && (
                  <a
                    className="button small"
                    href={connectUrl(row.provider)}
                    aria-label={
                      row.connected
                        ? t("settings.connections.reconnectLabel", { provider: label })
                        : t("settings.connections.connectLabel", { provider: label })
                    }
                  >
                    {row.connected ? t("settings.connections.reconnect") : t("settings.connections.connect")}
                  </a>
                )}
                {row.connected && (
                  <button
                    type="button"
                    className="button ghost small"
                    disabled={disconnect.isPending}
                    aria-label={t("settings.connections.disconnectLabel", { provider: label })}
                    onClick={() => disconnect.mutate(row.provider)}
                  >
                    {t("settings.connections.disconnect")}
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export default function SettingsDialog({
  tab,
  onTab,
  onClose,
}: {
  /** The tab in the URL. */
  tab: Tab;
  onTab(tab: Tab): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const setTab = onTab;
  const labels = useSettingsTabLabels();
  const tabs = SETTINGS_TABS.map((id) => ({ id, label: labels[id] }));
  return (
    <Dialog open onClose={onClose} size="md" title={t("settings.title")} className="settings-dialog">
      <div className="tabs" role="tablist" aria-label={t("settings.sections")}>
        {tabs.map((entry) => (
          <button
            key={entry.id}
            type="button"
            role="tab"
            id={`tab-${entry.id}`}
            aria-selected={tab === entry.id}
            aria-controls={`panel-${entry.id}`}
            tabIndex={tab === entry.id ? 0 : -1}
            className={`tab${tab === entry.id ? " is-selected" : ""}`}
            onClick={() => setTab(entry.id)}
            onKeyDown={(e) => {
              const index = tabs.findIndex((x) => x.id === tab);
              const delta = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
              if (!delta) return;
              const next = tabs[(index + delta + tabs.length) % tabs.length]!;
              setTab(next.id);
              document.getElementById(`tab-${next.id}`)?.focus();
            }}
          >
            {entry.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="tab-panel">
        {tab === "general" && <General />}
        {tab === "reminders" && <RemindersTab />}
        {tab === "profile" && <ProfileTab />}
        {tab === "connections" && <Connections />}
        {tab === "integrations" && <IntegrationsTab />}
        {tab === "keys" && <ApiKeysTab />}
        {tab === "sessions" && <SessionsTab />}
      </div>
    </Dialog>
  );
}
