import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { PROVIDER_LABELS } from "../../../contract/providers";
import { ApiError } from "../../../web/lib/api";
import { dataApi, dataKeys } from "../../../web/lib/data-api";
import { ErrorState, Skeleton } from "../../../web/ui/States";
import { ConnectPrompt } from "../../../web/widget-kit/data/ProviderGate";
import { retryData } from "../../../web/widget-kit/data/useWidgetData";
import { AlertToggle } from "../../../web/widget-kit/settings/AlertOption";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import { type InboxConfig, MAX_LABELS } from "../contract";
import { labelName, sortLabels } from "./logic";

export function InboxSettings({ config, onChange }: WidgetSettingsProps<InboxConfig>) {
  const { t } = useTranslation();
  const labels = useQuery({
    queryKey: [...dataKeys.provider("suite"), "labels"],
    queryFn: dataApi.mail.labels,
    staleTime: 5 * 60_000,
    retry: retryData,
  });
  const toggle = (id: string) => {
    const has = config.labels.includes(id);
    const next = has ? config.labels.filter((l) => l !== id) : [...config.labels, id].slice(0, MAX_LABELS);
    // An empty choice would mean nothing to show; Inbox is the sensible floor.
    onChange({ ...config, labels: next.length ? next : ["INBOX"] });
  };
  if (labels.isPending) return <Skeleton height={160} width="100%" />;
  if (labels.isError) {
    // The widget's own words when the account went missing meanwhile.
    if (labels.error instanceof ApiError && labels.error.code === "account_not_connected")
      return (
        <ConnectPrompt provider="suite" label={PROVIDER_LABELS.suite} purpose={t("widgets.inbox.purpose")} />
      );
    return (
      <ErrorState
        error={labels.error}
        title={t("widgets.inbox.settings.labelsFailed")}
        onRetry={() => void labels.refetch()}
      />
    );
  }
  return (
    <>
      <fieldset className="field">
        <legend className="field-label">{t("widgets.inbox.settings.labels")}</legend>
        <ul className="check-list">
          {sortLabels(labels.data).map((label) => (
            <li key={label.id}>
              <label className="checkbox-row">
                <input
                  type="checkbox"
                  checked={config.labels.includes(label.id)}
                  disabled={!config.labels.includes(label.id) && config.labels.length >= MAX_LABELS}
                  onChange={() => toggle(label.id)}
                />
                {labelName(label)}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <AlertToggle
        label={t("widgets.inbox.settings.notify")}
        checked={config.notifyNewMail === true}
        // Off is stored as the key left out, like every optional alert key.
        onChange={(on) => {
          const { notifyNewMail: _old, ...rest } = config;
          onChange(on ? { ...rest, notifyNewMail: true } : rest);
        }}
      />
    </>
  );
}
