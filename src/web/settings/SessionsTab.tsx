import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useLocale } from "../i18n/use-locale";
import { describeError } from "../lib/api";
import { useRemoveFromList } from "../lib/list-cache";
import { type DeviceSession, operatorsApi } from "../lib/operators-api";
import { operatorKeys } from "../lib/operators-queries";
import { exactTime, relativeTime } from "../lib/relative-time";
import { describeDevice, parseUserAgent } from "../lib/user-agent";
import { Icon } from "../ui/icons";
import { QueryError, Skeleton } from "../ui/States";
import { useToasts } from "../ui/Toasts";
import { SsoLink } from "./SsoLink";

/** This device first, then the most recently active. */
export function sortSessions(list: readonly DeviceSession[]): DeviceSession[] {
  return [...list].sort(
    (a, b) => Number(b.current) - Number(a.current) || b.lastActiveAt.localeCompare(a.lastActiveAt),
  );
}

function SessionRow({ item, busy, onSignOut }: { item: DeviceSession; busy: boolean; onSignOut(): void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const device = describeDevice(item.userAgent);
  const { os } = parseUserAgent(item.userAgent);
  const mobile = os === "iPhone" || os === "Android";
  return (
    <li className="provider-row session-row" data-current={item.current || undefined}>
      <div className="key-main">
        <div className="key-title">
          <Icon name={mobile ? "phone" : "monitor"} size={16} className="muted" />
          <strong>{device}</strong>
          {item.current && <span className="status-pill is-on">{t("settings.sessions.thisDevice")}</span>}
        </div>
        <p className="key-meta muted">
          {item.ipAddress && (
            <>
              <span>{item.ipAddress}</span>
              {" · "}
            </>
          )}
          <span title={exactTime(item.lastActiveAt, locale)}>
            {item.current
              ? t("settings.sessions.activeNow")
              : t("settings.sessions.lastActive", {
                  when: relativeTime(item.lastActiveAt, undefined, locale),
                })}
          </span>
          {" · "}
          <span title={exactTime(item.createdAt, locale)}>
            {t("settings.sessions.signedIn", { when: relativeTime(item.createdAt, undefined, locale) })}
          </span>
        </p>
      </div>
      {!item.current && (
        <button
          type="button"
          className="button ghost small"
          disabled={busy}
          aria-label={
            item.ipAddress
              ? t("settings.sessions.signOutDeviceAt", { device, ip: item.ipAddress })
              : t("settings.sessions.signOutDevice", { device })
          }
          onClick={onSignOut}
        >
          {t("settings.sessions.signOut")}
        </button>
      )}
    </li>
  );
}

/** Settings → Sessions: where this account is signed in, signing those out, and single sign-on. */
export function SessionsTab() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const toasts = useToasts();
  const list = useQuery({ queryKey: operatorKeys.sessions, queryFn: operatorsApi.sessions.list });
  const remove = useRemoveFromList(operatorKeys.sessions, operatorsApi.sessions.remove);
  const removeOne = useMutation({
    mutationFn: remove,
    onSuccess: () => {
      toasts.show({ tone: "success", message: t("settings.sessions.signedOut") });
    },
    onError: (e) =>
      toasts.show({
        tone: "error",
        message: t("settings.sessions.signOutFailed", { reason: describeError(e) }),
      }),
  });
  const removeOthers = useMutation({
    mutationFn: operatorsApi.sessions.revokeOthers,
    onSuccess: () => {
      client.setQueryData<DeviceSession[]>(operatorKeys.sessions, (s) => s?.filter((x) => x.current));
      void client.invalidateQueries({ queryKey: operatorKeys.sessions });
      toasts.show({ tone: "success", message: t("settings.sessions.othersSignedOut") });
    },
    onError: (e) =>
      toasts.show({
        tone: "error",
        message: t("settings.sessions.signOutOthersFailed", { reason: describeError(e) }),
      }),
  });

  if (list.isPending)
    return (
      <div className="settings-section">
        <Skeleton height={64} width="100%" />
        <Skeleton height={64} width="100%" />
      </div>
    );
  if (list.isError)
    return (
      <div className="settings-section">
        <QueryError query={list} title={t("settings.sessions.loadFailed")} />
      </div>
    );

  const sessions = sortSessions(list.data);
  const others = sessions.filter((s) => !s.current).length;
  return (
    <div className="settings-section">
      <p className="muted">{t("settings.sessions.intro")}</p>
      <ul className="provider-list" aria-label={t("settings.sessions.listLabel")}>
        {sessions.map((item) => (
          <SessionRow
            key={item.id}
            item={item}
            busy={removeOne.isPending && removeOne.variables === item.id}
            onSignOut={() => removeOne.mutate(item.id)}
          />
        ))}
      </ul>
      <div className="dialog-actions start sessions-actions">
        <button
          type="button"
          className="button"
          disabled={others === 0 || removeOthers.isPending}
          onClick={() => removeOthers.mutate()}
        >
          <Icon name="logOut" size={15} />{" "}
          {removeOthers.isPending ? t("settings.sessions.signingOut") : t("settings.sessions.signOutOthers")}
        </button>
        {others === 0 && <span className="muted inline-note">{t("settings.sessions.noOthers")}</span>}
      </div>
      <SsoLink />
    </div>
  );
}
