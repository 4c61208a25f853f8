import { useQuery } from "@tanstack/react-query";
import { ApiError } from "../../lib/api";
import { dataApi, dataKeys } from "../../lib/data-api";
import { ErrorState, Skeleton } from "../../ui/States";
import { retryData } from "../common/useWidgetData";
import type { WidgetSettingsProps } from "../types";
import { type InboxConfig, labelName, MAX_LABELS, sortLabels } from "./config";

export function InboxSettings({ config, onChange }: WidgetSettingsProps<InboxConfig>) {
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
    onChange({ labels: next.length ? next : ["INBOX"] });
  };
  if (labels.isPending) return <Skeleton height={160} width="100%" />;
  if (labels.isError) {
    const notConnected = labels.error instanceof ApiError && labels.error.status === 404;
    return (
      <ErrorState
        error={labels.error}
        title={notConnected ? "Connect Google first (Settings → Connections)" : "The labels didn't load"}
        onRetry={() => void labels.refetch()}
      />
    );
  }
  return (
    <fieldset className="field">
      <legend className="field-label">Show messages with any of these labels</legend>
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
  );
}
