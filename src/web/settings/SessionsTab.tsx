import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { describeError } from "../lib/api";
import { type DeviceSession, ignoreGone, operatorsApi } from "../lib/operators-api";
import { operatorKeys } from "../lib/operators-queries";
import { exactTime, relativeTime } from "../lib/relative-time";
import { describeDevice, parseUserAgent } from "../lib/user-agent";
import { Icon } from "../ui/icons";
import { ErrorState, Skeleton } from "../ui/States";
import { useToasts } from "../ui/Toasts";

/** This device first, then the most recently active. */
export function sortSessions(list: readonly DeviceSession[]): DeviceSession[] {
  return [...list].sort(
    (a, b) => Number(b.current) - Number(a.current) || b.lastActiveAt.localeCompare(a.lastActiveAt),
  );
}

function SessionRow({ item, busy, onSignOut }: { item: DeviceSession; busy: boolean; onSignOut(): void }) {
  const device = describeDevice(item.userAgent);
  const { os } = parseUserAgent(item.userAgent);
  const mobile = os === "iPhone" || os === "Android";
  return (
    <li className="provider-row session-row" data-current={item.current || undefined}>
      <div className="key-main">
        <div className="key-title">
          <Icon name={mobile ? "phone" : "monitor"} size={16} className="muted" />
          <strong>{device}</strong>
          {item.current && <span className="status-pill is-on">This device</span>}
        </div>
        <p className="key-meta muted">
          {item.ipAddress && (
            <>
              <span>{item.ipAddress}</span>
              {" · "}
            </>
          )}
          <span title={exactTime(item.lastActiveAt)}>
            {item.current ? "Active now" : `Last active ${relativeTime(item.lastActiveAt)}`}
          </span>
          {" · "}
          <span title={exactTime(item.createdAt)}>Signed in {relativeTime(item.createdAt)}</span>
        </p>
      </div>
      {!item.current && (
        <button
          type="button"
          className="button ghost small"
          disabled={busy}
          aria-label={`Sign out ${device}${item.ipAddress ? ` at ${item.ipAddress}` : ""}`}
          onClick={onSignOut}
        >
          Sign out
        </button>
      )}
    </li>
  );
}

/** Settings → Sessions: where this account is signed in, and signing those out. */
export function SessionsTab() {
  const client = useQueryClient();
  const toasts = useToasts();
  const list = useQuery({ queryKey: operatorKeys.sessions, queryFn: operatorsApi.sessions.list });
  const removeOne = useMutation({
    mutationFn: (id: string) => operatorsApi.sessions.remove(id).catch(ignoreGone),
    onSuccess: (_r, id) => {
      client.setQueryData<DeviceSession[]>(operatorKeys.sessions, (s) => s?.filter((x) => x.id !== id));
      toasts.show({ tone: "success", message: "That device is signed out" });
    },
    onError: (e) => toasts.show({ tone: "error", message: `Couldn't sign it out: ${describeError(e)}` }),
  });
  const removeOthers = useMutation({
    mutationFn: operatorsApi.sessions.revokeOthers,
    onSuccess: () => {
      client.setQueryData<DeviceSession[]>(operatorKeys.sessions, (s) => s?.filter((x) => x.current));
      void client.invalidateQueries({ queryKey: operatorKeys.sessions });
      toasts.show({ tone: "success", message: "Every other device is signed out" });
    },
    onError: (e) => toasts.show({ tone: "error", message: `Couldn't sign them out: ${describeError(e)}` }),
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
        <ErrorState
          error={list.error}
          title="Your sessions didn't load"
          onRetry={() => void list.refetch()}
        />
      </div>
    );

  const sessions = sortSessions(list.data);
  const others = sessions.filter((s) => !s.current).length;
  return (
    <div className="settings-section">
      <p className="muted">
        Where your account is signed in. Sign out a device you don't recognise or no longer use.
      </p>
      <ul className="provider-list" aria-label="Signed-in devices">
        {sessions.map((item) => (
          <SessionRow
            key={item.id}
            item={item}
            busy={removeOne.isPending && removeOne.variables === item.id}
            onSignOut={() => removeOne.mutate(item.id)}
          />
        ))}
      </ul>
      <div className="dialog-actions start">
        <button
          type="button"
          className="button"
          disabled={others === 0 || removeOthers.isPending}
          onClick={() => removeOthers.mutate()}
        >
          <Icon name="logOut" size={15} />{" "}
          {removeOthers.isPending ? "Signing out…" : "Sign out all other devices"}
        </button>
        {others === 0 && <span className="muted inline-note">No other devices are signed in.</span>}
      </div>
    </div>
  );
}
