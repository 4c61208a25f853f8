import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Dashboard } from "../../contract/resources";
import { api, describeError } from "../lib/api";
import { replaceInList } from "../lib/list-cache";
import { keys } from "../lib/queries";
import { Dialog } from "../ui/Dialog";
import { FormError } from "../ui/fields";
import { Icon } from "../ui/icons";
import { WIDGETS } from "../widget-kit/registry";
import { widgetName } from "./widget-name";

export function publicUrl(id: string, origin = window.location.origin): string {
  return `${origin}/p/${id}`;
}

const PRIVATE = WIDGETS.filter((d) => d.provider);

/** Publishing makes a read-only copy of the layout visible to anyone with the link. */
export function ShareDialog({ dashboard, onClose }: { dashboard: Dashboard; onClose(): void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const toggle = useMutation({
    mutationFn: (isPublic: boolean) => api.dashboards.setPublic(dashboard.id, dashboard.name, isPublic),
    onSuccess: (saved) => {
      setError(null);
      replaceInList(client, keys.dashboards, saved);
    },
    onError: (e) => setError(describeError(e)),
  });
  const current = client.getQueryData<Dashboard[]>(keys.dashboards)?.find((d) => d.id === dashboard.id);
  const isPublic = toggle.isPending ? Boolean(toggle.variables) : (current?.isPublic ?? dashboard.isPublic);
  const link = publicUrl(dashboard.id);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // No clipboard permission (http, an old browser): select it for Ctrl+C instead.
      input.current?.select();
    }
  };

  return (
    <Dialog
      open
      onClose={onClose}
      size="sm"
      title={t("share.title", { name: dashboard.name })}
      description={t("share.description")}
    >
      <FormError message={error} />
      <label className="checkbox-row share-toggle">
        <input
          type="checkbox"
          role="switch"
          aria-checked={isPublic}
          checked={isPublic}
          disabled={toggle.isPending}
          onChange={(e) => toggle.mutate(e.target.checked)}
        />
        <span>
          <strong>{t("share.publicLink")}</strong>
          <span className="muted"> {isPublic ? t("share.on") : t("share.off")}</span>
        </span>
      </label>
      {isPublic && (
        <div className="share-link">
          <input
            ref={input}
            aria-label={t("share.publicLink")}
            value={link}
            readOnly
            onFocus={(e) => e.target.select()}
          />
          <button type="button" className="button small" onClick={() => void copy()}>
            <Icon name={copied ? "check" : "copy"} size={14} />{" "}
            {copied ? t("share.copied") : t("common.copy")}
          </button>
          <a
            className="icon-button small"
            href={link}
            target="_blank"
            rel="noopener"
            aria-label={t("share.openPublic")}
          >
            <Icon name="external" size={14} />
          </a>
        </div>
      )}
      <p className="muted share-note">
        {t("share.privateNote", { names: PRIVATE.map(widgetName).join(", ") })}
      </p>
    </Dialog>
  );
}
