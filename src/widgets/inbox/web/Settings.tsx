import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { dataApi, dataKeys } from "../../../web/lib/data-api";
import { Skeleton } from "../../../web/ui/States";
import { QueryView } from "../../../web/widget-kit/data/QueryView";
import { retryData } from "../../../web/widget-kit/data/useWidgetData";
import { AlertFlag } from "../../../web/widget-kit/settings/AlertOption";
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
  return (
    <QueryView
      query={labels}
      skeleton={<Skeleton height={160} width="100%" />}
      errorTitle={t("widgets.inbox.settings.labelsFailed")}
      // The widget's own words when the account went missing meanwhile.
      connect={{ provider: "suite", purpose: t("widgets.inbox.purpose") }}
    >
      {(list) => (
        <>
          <fieldset className="field">
            <legend className="field-label">{t("widgets.inbox.settings.labels")}</legend>
            <ul className="check-list">
              {sortLabels(list).map((label) => (
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
          <AlertFlag
            config={config}
            onChange={onChange}
            flag="notifyNewMail"
            label={t("widgets.inbox.settings.notify")}
          />
        </>
      )}
    </QueryView>
  );
}
