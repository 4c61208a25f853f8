import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { Notification } from "../../contract/resources";
import { api, describeError } from "../lib/api";
import { keys, useNotifications } from "../lib/queries";
import { Icon, type IconName } from "../ui/icons";
import { Popover } from "../ui/Popover";
import { ErrorState, Skeleton } from "../ui/States";
import { useToasts } from "../ui/Toasts";

const TYPE_ICON: Record<Notification["type"], IconName> = {
  message: "message",
  alert: "alert",
  reminder: "bell",
};

function seenKey(userId: string) {
  return `tessera:notifications-seen:${userId}`;
}
function readSeen(userId: string): string {
  try {
    return localStorage.getItem(seenKey(userId)) ?? "";
  } catch {
    return "";
  }
}

export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return "";
  if (seconds < 45) return "just now";
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  if (seconds < 3600) return format.format(-Math.round(seconds / 60), "minute");
  if (seconds < 86_400) return format.format(-Math.round(seconds / 3600), "hour");
  if (seconds < 7 * 86_400) return format.format(-Math.round(seconds / 86_400), "day");
  return new Date(iso).toLocaleDateString();
}

/**
 * The bell: unread are those newer than the newest one the user has seen (kept per browser,
 * the API has no read flag). Opening the list marks everything seen.
 */
export function NotificationBell({ userId }: { userId: string }) {
  const { data, isPending, isError, error, refetch } = useNotifications();
  const client = useQueryClient();
  const toasts = useToasts();
  const [open, setOpen] = useState(false);
  const [seen, setSeen] = useState(() => readSeen(userId));
  // What counted as unread when the list was opened stays highlighted while it is open.
  const [highlightAfter, setHighlightAfter] = useState(seen);
  const list = data ?? [];
  const unread = list.filter((n) => n.createdAt > seen).length;

  const markSeen = () => {
    const newest = list[0]?.createdAt;
    if (!newest || newest <= seen) return;
    setSeen(newest);
    try {
      localStorage.setItem(seenKey(userId), newest);
    } catch {
      // Without storage the count resets on reload; harmless.
    }
  };

  const clear = useMutation({
    mutationFn: api.notifications.clear,
    onSuccess: () => client.setQueryData<Notification[]>(keys.notifications, []),
    onError: (e) =>
      toasts.show({ tone: "error", message: `Couldn't clear notifications: ${describeError(e)}` }),
  });

  return (
    <div className="bell">
      <button
        type="button"
        className="icon-button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-label={unread ? `Notifications, ${unread} unread` : "Notifications"}
        onClick={() => {
          if (!open) setHighlightAfter(seen);
          setOpen((o) => !o);
          markSeen();
        }}
      >
        <Icon name="bell" />
        {unread > 0 && (
          <span className="badge" data-testid="unread-count">
            {unread > 99 ? "99+" : unread}
          </span>
        )}
      </button>
      <Popover
        open={open}
        onClose={() => {
          setOpen(false);
          markSeen();
        }}
        label="Notifications"
        className="bell-panel"
      >
        <header className="bell-header">
          <strong>Notifications</strong>
          {list.length > 0 && (
            <button
              type="button"
              className="button ghost small"
              disabled={clear.isPending}
              onClick={() => clear.mutate()}
            >
              Clear all
            </button>
          )}
        </header>
        {isPending ? (
          <div className="bell-list">
            <Skeleton height={44} width="100%" />
            <Skeleton height={44} width="100%" />
          </div>
        ) : isError ? (
          <ErrorState error={error} onRetry={() => void refetch()} title="Notifications didn't load" />
        ) : list.length === 0 ? (
          <div className="bell-empty">
            <Icon name="inbox" size={22} />
            <span>You're all caught up</span>
          </div>
        ) : (
          <ul className="bell-list" aria-label="Notification list">
            {list.map((n) => (
              <li
                key={n.id}
                className={`bell-item bell-${n.type}${n.createdAt > highlightAfter ? " is-unread" : ""}`}
              >
                <Icon name={TYPE_ICON[n.type]} size={16} />
                <div>
                  <p>{n.message}</p>
                  <time dateTime={n.createdAt} title={new Date(n.createdAt).toLocaleString()}>
                    {relativeTime(n.createdAt)}
                  </time>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Popover>
    </div>
  );
}
