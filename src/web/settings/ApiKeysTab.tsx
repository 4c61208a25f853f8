import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { useLocale } from "../i18n/use-locale";
import { useRemoveFromList } from "../lib/list-cache";
import { type ApiKey, type CreatedApiKey, operatorsApi } from "../lib/operators-api";
import { operatorKeys } from "../lib/operators-queries";
import { exactTime, relativeTime } from "../lib/relative-time";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { SecretBox } from "../ui/CopyField";
import { QueryList } from "../ui/States";
import { useToasts } from "../ui/Toasts";
import { ApiKeyForm, scopeText } from "./ApiKeyForm";

/** The new key, told once: copy it now or create another. */
function CreatedKey({ created, onDone }: { created: CreatedApiKey; onDone(): void }) {
  const { t } = useTranslation();
  return (
    <SecretBox
      titleId="created-key-title"
      title={t("settings.apiKeys.created.title", { name: created.name })}
      value={created.key}
      label={t("settings.apiKeys.created.key")}
      onDone={onDone}
    >
      <Trans i18nKey="settings.apiKeys.created.text" components={{ strong: <strong />, code: <code /> }} />
    </SecretBox>
  );
}

function KeyRow({ item, onRevoke }: { item: ApiKey; onRevoke(): void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const when = (iso: string) => relativeTime(iso, undefined, locale);
  const expired = item.expiresAt !== null && Date.parse(item.expiresAt) <= Date.now();
  return (
    <li className="provider-row key-row" data-key-id={item.id}>
      <div className="key-main">
        <div className="key-title">
          <strong>{item.name}</strong>
          <code className="key-start">{item.start.endsWith("…") ? item.start : `${item.start}…`}</code>
          {expired && <span className="status-pill is-warn">{t("time.expired")}</span>}
        </div>
        <div className="key-scopes">
          {item.scopes.map((scope) => (
            <span key={scope} className="status-pill">
              {scopeText(scope)?.label ?? scope}
            </span>
          ))}
        </div>
        <p className="key-meta muted">
          <span title={exactTime(item.createdAt, locale)}>
            {t("settings.apiKeys.key.created", { when: when(item.createdAt) })}
          </span>
          {" · "}
          <span title={item.expiresAt ? exactTime(item.expiresAt, locale) : undefined}>
            {expired
              ? t("time.expired")
              : item.expiresAt
                ? t("settings.apiKeys.key.expires", { when: when(item.expiresAt) })
                : t("settings.apiKeys.key.neverExpires")}
          </span>
          {" · "}
          <span title={item.lastUsedAt ? exactTime(item.lastUsedAt, locale) : undefined}>
            {item.lastUsedAt
              ? t("settings.apiKeys.key.lastUsed", { when: when(item.lastUsedAt) })
              : t("settings.apiKeys.key.neverUsed")}
          </span>
        </p>
      </div>
      <button
        type="button"
        className="button ghost small danger-text"
        aria-label={t("settings.apiKeys.key.revokeNamed", { name: item.name })}
        onClick={onRevoke}
      >
        {t("settings.apiKeys.key.revoke")}
      </button>
    </li>
  );
}

/** Settings → API keys: keys for scripts and integrations, each with its scopes. */
export function ApiKeysTab() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const toasts = useToasts();
  const list = useQuery({ queryKey: operatorKeys.apiKeys, queryFn: operatorsApi.keys.list });
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const remove = useRemoveFromList(operatorKeys.apiKeys, operatorsApi.keys.remove);

  const onCreated = (key: CreatedApiKey) => {
    const { key: _secret, ...stored } = key;
    client.setQueryData<ApiKey[]>(operatorKeys.apiKeys, (keys) => [stored, ...(keys ?? [])]);
    setCreated(key);
  };

  return (
    <div className="settings-section">
      <p className="muted">{t("settings.apiKeys.intro")}</p>
      {created ? (
        <CreatedKey created={created} onDone={() => setCreated(null)} />
      ) : (
        <ApiKeyForm onCreated={onCreated} />
      )}
      <h3 className="section-title">{t("settings.apiKeys.list.title")}</h3>
      <QueryList
        query={list}
        placeholderHeight={64}
        failed={t("settings.apiKeys.list.loadFailed")}
        empty={t("settings.apiKeys.list.empty")}
      >
        {(keys) => (
          <ul className="provider-list" aria-label={t("settings.apiKeys.list.label")}>
            {keys.map((item) => (
              <KeyRow key={item.id} item={item} onRevoke={() => setRevoking(item)} />
            ))}
          </ul>
        )}
      </QueryList>
      {revoking && (
        <ConfirmDialog
          title={t("settings.apiKeys.revokeDialog.title", { name: revoking.name })}
          description={t("settings.apiKeys.revokeDialog.description")}
          confirmLabel={t("settings.apiKeys.revokeDialog.confirm")}
          busyLabel={t("settings.apiKeys.revokeDialog.revoking")}
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await remove(revoking.id);
            if (created?.id === revoking.id) setCreated(null);
            toasts.show({ tone: "success", message: t("settings.apiKeys.revoked", { name: revoking.name }) });
          }}
        />
      )}
    </div>
  );
}
