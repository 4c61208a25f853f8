import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import type { Dashboard } from "../../contract/resources";
import { api, describeError } from "../lib/api";
import { keys } from "../lib/queries";
import { Dialog } from "../ui/Dialog";
import { Icon } from "../ui/icons";
import { WIDGETS } from "../widgets/registry";

export function publicUrl(id: string, origin = window.location.origin): string {
  return `${origin}/p/${id}`;
}

const PRIVATE_NAMES = WIDGETS.filter((d) => d.provider).map((d) => d.name);

/** Publishing makes a read-only copy of the layout visible to anyone with the link. */
export function ShareDialog({ dashboard, onClose }: { dashboard: Dashboard; onClose(): void }) {
  const client = useQueryClient();
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const toggle = useMutation({
    mutationFn: (isPublic: boolean) => api.dashboards.setPublic(dashboard.id, dashboard.name, isPublic),
    onSuccess: (saved) => {
      setError(null);
      client.setQueryData<Dashboard[]>(keys.dashboards, (list) =>
        list?.map((d) => (d.id === saved.id ? saved : d)),
      );
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
      title={`Share “${dashboard.name}”`}
      description="Anyone with the link can look at this dashboard. Nobody can change it."
    >
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
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
          <strong>Public link</strong>
          <span className="muted"> {isPublic ? "On: anyone with the link can view" : "Off: only you"}</span>
        </span>
      </label>
      {isPublic && (
        <div className="share-link">
          <input
            ref={input}
            aria-label="Public link"
            value={link}
            readOnly
            onFocus={(e) => e.target.select()}
          />
          <button type="button" className="button small" onClick={() => void copy()}>
            <Icon name={copied ? "check" : "copy"} size={14} /> {copied ? "Copied" : "Copy"}
          </button>
          <a
            className="icon-button small"
            href={link}
            target="_blank"
            rel="noopener"
            aria-label="Open the public page"
          >
            <Icon name="external" size={14} />
          </a>
        </div>
      )}
      <p className="muted share-note">
        {PRIVATE_NAMES.join(", ")} widgets are never shown there: they hold your connected accounts' data.
      </p>
    </Dialog>
  );
}
