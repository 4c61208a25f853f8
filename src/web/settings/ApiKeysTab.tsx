import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { type ApiKey, type CreatedApiKey, ignoreGone, operatorsApi } from "../lib/operators-api";
import { operatorKeys } from "../lib/operators-queries";
import { exactTime, relativeTime } from "../lib/relative-time";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { CopyField } from "../ui/CopyField";
import { Icon } from "../ui/icons";
import { ErrorState, Skeleton } from "../ui/States";
import { useToasts } from "../ui/Toasts";
import { ApiKeyForm, SCOPE_LABELS } from "./ApiKeyForm";

/** The new key, told once: copy it now or create another. */
function CreatedKey({ created, onDone }: { created: CreatedApiKey; onDone(): void }) {
  return (
    <section className="secret-box" aria-labelledby="created-key-title">
      <h3 id="created-key-title" className="section-title">
        <Icon name="check" size={16} /> “{created.name}” is ready
      </h3>
      <p>
        Copy the key now and keep it somewhere safe: <strong>you won't see it again.</strong> Send it as{" "}
        <code>Authorization: Bearer …</code>
      </p>
      <CopyField value={created.key} label="API key" mono />
      <div className="dialog-actions start">
        <button type="button" className="button" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

function KeyRow({ item, onRevoke }: { item: ApiKey; onRevoke(): void }) {
  const expired = item.expiresAt !== null && Date.parse(item.expiresAt) <= Date.now();
  return (
    <li className="provider-row key-row" data-key-id={item.id}>
      <div className="key-main">
        <div className="key-title">
          <strong>{item.name}</strong>
          <code className="key-start">{item.start.endsWith("…") ? item.start : `${item.start}…`}</code>
          {expired && <span className="status-pill is-warn">Expired</span>}
        </div>
        <div className="key-scopes">
          {item.scopes.map((scope) => (
            <span key={scope} className="status-pill">
              {SCOPE_LABELS[scope]?.label ?? scope}
            </span>
          ))}
        </div>
        <p className="key-meta muted">
          <span title={exactTime(item.createdAt)}>Created {relativeTime(item.createdAt)}</span>
          {" · "}
          <span title={item.expiresAt ? exactTime(item.expiresAt) : undefined}>
            {expired
              ? "Expired"
              : item.expiresAt
                ? `Expires ${relativeTime(item.expiresAt)}`
                : "Never expires"}
          </span>
          {" · "}
          <span title={item.lastUsedAt ? exactTime(item.lastUsedAt) : undefined}>
            {item.lastUsedAt ? `Last used ${relativeTime(item.lastUsedAt)}` : "Never used"}
          </span>
        </p>
      </div>
      <button
        type="button"
        className="button ghost small danger-text"
        aria-label={`Revoke ${item.name}`}
        onClick={onRevoke}
      >
        Revoke
      </button>
    </li>
  );
}

/** Settings → API keys: keys for scripts and integrations, each with its scopes. */
export function ApiKeysTab() {
  const client = useQueryClient();
  const toasts = useToasts();
  const list = useQuery({ queryKey: operatorKeys.apiKeys, queryFn: operatorsApi.keys.list });
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const onCreated = (key: CreatedApiKey) => {
    const { key: _secret, ...stored } = key;
    client.setQueryData<ApiKey[]>(operatorKeys.apiKeys, (keys) => [stored, ...(keys ?? [])]);
    setCreated(key);
  };

  return (
    <div className="settings-section">
      <p className="muted">
        API keys let scripts and other services use Tessera as you, within the scopes you give them.
      </p>
      {created ? (
        <CreatedKey created={created} onDone={() => setCreated(null)} />
      ) : (
        <ApiKeyForm onCreated={onCreated} />
      )}
      <h3 className="section-title">Your keys</h3>
      {list.isPending ? (
        <Skeleton height={64} width="100%" />
      ) : list.isError ? (
        <ErrorState error={list.error} title="Your keys didn't load" onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <p className="muted empty-line">No API keys yet.</p>
      ) : (
        <ul className="provider-list" aria-label="API keys">
          {list.data.map((item) => (
            <KeyRow key={item.id} item={item} onRevoke={() => setRevoking(item)} />
          ))}
        </ul>
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke “${revoking.name}”?`}
          description="Whatever uses this key stops working at once. This cannot be undone."
          confirmLabel="Revoke key"
          busyLabel="Revoking…"
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await operatorsApi.keys.remove(revoking.id).catch(ignoreGone);
            client.setQueryData<ApiKey[]>(operatorKeys.apiKeys, (keys) =>
              keys?.filter((k) => k.id !== revoking.id),
            );
            if (created?.id === revoking.id) setCreated(null);
            toasts.show({ tone: "success", message: `“${revoking.name}” is revoked` });
          }}
        />
      )}
    </div>
  );
}
