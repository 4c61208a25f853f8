import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Notification } from "../../contract/resources";
import { useLocale } from "../i18n/use-locale";
import { api, describeError } from "../lib/api";
import { keys, useNotifications } from "../lib/queries";
import { exactTime, relativeTime } from "../lib/relative-time";
import { Icon, type IconName } from "../ui/icons";
import { Popover, PopoverTrigger } from "../ui/Popover";
import { QueryError, Skeleton } from "../ui/States";
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

/**
 * The bell: unread are those newer than the newest one the user has seen (kept per browser,
 * the API has no read flag). Opening the list marks everything seen.
 */
export function NotificationBell({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notifications = useNotifications();
  const { data, isPending, isError } = notifications;
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
      toasts.show({ tone: "error", message: t("notifications.clearFailed", { reason: describeError(e) }) }),
  });

  return (
    <div className="bell">
      <PopoverTrigger
        open={open}
        className="icon-button"
        label={unread ? t("notifications.unread", { count: unread }) : t("notifications.title")}
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
      </PopoverTrigger>
      <Popover
        open={open}
        onClose={() => {
          setOpen(false);
          markSeen();
        }}
        label={t("notifications.title")}
        className="bell-panel"
      >
        <header className="bell-header">
          <strong>{t("notifications.title")}</strong>
          {list.length > 0 && (
            <button
              type="button"
              className="button ghost small"
              disabled={clear.isPending}
              onClick={() => clear.mutate()}
            >
              {t("notifications.clearAll")}
            </button>
          )}
        </header>
        {isPending ? (
          <div className="bell-list">
            <Skeleton height={44} width="100%" />
            <Skeleton height={44} width="100%" />
          </div>
        ) : isError ? (
          <QueryError query={notifications} title={t("notifications.failed")} />
        ) : list.length === 0 ? (
          <div className="bell-empty">
            <Icon name="inbox" size={22} />
            <span>{t("notifications.empty")}</span>
          </div>
        ) : (
          <ul className="bell-list" aria-label={t("notifications.list")}>
            {list.map((n) => (
              <li
                key={n.id}
                className={`bell-item bell-${n.type}${n.createdAt > highlightAfter ? " is-unread" : ""}`}
              >
                <Icon name={TYPE_ICON[n.type]} size={16} />
                <div>
                  <p>{n.message}</p>
                  <time dateTime={n.createdAt} title={exactTime(n.createdAt, locale)}>
                    {relativeTime(n.createdAt, Date.now(), locale)}
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
