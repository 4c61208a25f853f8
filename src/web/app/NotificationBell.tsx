import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Notification } from "../../contract/resources";
import { useLocale } from "../i18n/use-locale";
import { ApiError, api, describeError } from "../lib/api";
import {
  dropNotification,
  isUnread,
  notificationsApi,
  raiseReadMark,
  useReadMark,
} from "../lib/notifications-api";
import { addNotificationToCache, keys, useNotifications } from "../lib/queries";
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

/** Enough of a message to tell its dismiss button from the others'. */
function excerpt(message: string): string {
  const flat = message.replace(/\s+/g, " ").trim();
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}

/**
 * The bell: unread are the notifications newer than the user's read mark, which the server keeps
 * for every device. The old per-browser mark in localStorage is not carried over: until the first
 * open after the update, everything retained counts as unread once. Opening the list marks all
 * read; another device's reading, dismissing and clearing arrive over the stream.
 *
 * `userId` is no longer needed (the mark is the signed-in user's on the server).
 */
export function NotificationBell(_props: { userId?: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notifications = useNotifications();
  const { data, isPending, isError } = notifications;
  const { data: mark } = useReadMark();
  const client = useQueryClient();
  const toasts = useToasts();
  const [open, setOpen] = useState(false);
  // What counted as unread when the list was opened stays highlighted while it is open.
  const [highlightAfter, setHighlightAfter] = useState<string | null>(null);
  const list = data ?? [];
  const unread = list.filter((n) => isUnread(n, mark)).length;

  const markRead = useMutation({
    mutationFn: notificationsApi.markRead,
    onSuccess: ({ readUpTo }) => raiseReadMark(client, readUpTo),
    // Only the count depends on it: show the stored mark again rather than interrupt with a toast.
    onError: () => void client.invalidateQueries({ queryKey: keys.notificationsRead, exact: true }),
  });
  const markAllRead = () => {
    const newest = list[0];
    if (!newest || !isUnread(newest, mark)) return;
    raiseReadMark(client, newest.id);
    markRead.mutate(newest.id);
  };

  /**
   * Where focus goes once the list has changed after a dismissal (or Clear all): that id's dismiss
   * button, or (null) the empty state; undefined: leave focus alone.
   */
  const focusNext = useRef<string | null | undefined>(undefined);
  const listRef = useRef<HTMLUListElement>(null);
  const emptyRef = useRef<HTMLDivElement>(null);
  // After every render, until the render that shows the target (the list's change) comes.
  useEffect(() => {
    const target = focusNext.current;
    if (target === undefined) return;
    const element =
      target === null
        ? emptyRef.current
        : listRef.current?.querySelector<HTMLElement>(`[data-dismiss="${target}"]`);
    if (!element) return;
    focusNext.current = undefined;
    element.focus();
  });

  const dismiss = useMutation({
    mutationFn: (n: Notification) => notificationsApi.dismiss(n.id),
    onError: (e, n) => {
      // Gone already: another device dismissed or cleared it.
      if (e instanceof ApiError && e.status === 404) return;
      addNotificationToCache(client, n);
      toasts.show({ tone: "error", message: t("notifications.dismissFailed", { reason: describeError(e) }) });
    },
  });
  const onDismiss = (n: Notification, index: number) => {
    focusNext.current = (list[index + 1] ?? list[index - 1])?.id ?? null;
    // Gone at once, in this handler: the same render takes the item away and moves focus.
    dropNotification(client, n.id);
    dismiss.mutate(n);
  };

  const clear = useMutation({
    mutationFn: api.notifications.clear,
    onSuccess: () => {
      focusNext.current = null;
      client.setQueryData<Notification[]>(keys.notifications, []);
    },
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
          if (!open) setHighlightAfter(mark ?? null);
          else focusNext.current = undefined;
          setOpen((o) => !o);
          markAllRead();
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
          focusNext.current = undefined;
          markAllRead();
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
          <div className="bell-empty" ref={emptyRef} tabIndex={-1}>
            <Icon name="inbox" size={22} />
            <span>{t("notifications.empty")}</span>
          </div>
        ) : (
          <ul className="bell-list" aria-label={t("notifications.list")} ref={listRef}>
            {list.map((n, index) => (
              <li
                key={n.id}
                className={`bell-item bell-${n.type}${isUnread(n, highlightAfter) ? " is-unread" : ""}`}
              >
                <Icon name={TYPE_ICON[n.type]} size={16} />
                <div className="bell-text">
                  <p>{n.message}</p>
                  <time dateTime={n.createdAt} title={exactTime(n.createdAt, locale)}>
                    {relativeTime(n.createdAt, Date.now(), locale)}
                  </time>
                </div>
                <button
                  type="button"
                  className="icon-button small bell-dismiss"
                  data-dismiss={n.id}
                  aria-label={t("notifications.dismiss", { message: excerpt(n.message) })}
                  title={t("notifications.dismissTitle")}
                  onClick={() => onDismiss(n, index)}
                >
                  <Icon name="x" size={14} />
                </button>
              </li>
            ))}
          </ul>
        )}
      </Popover>
    </div>
  );
}
