import { t } from "../../../web/i18n/i18n";
import type { MailLabel, MailSummary } from "../../../web/lib/data-api";
import { appLocale, dayKey, formatTime, type TimeOptions } from "../../../web/widget-kit/data/format";

/** The system labels people use, in the order shown, named in the app's language. */
const SYSTEM_NAMES: Record<string, () => string> = {
  INBOX: () => t("widgets.inbox.label.inbox"),
  UNREAD: () => t("widgets.inbox.label.unread"),
  STARRED: () => t("widgets.inbox.label.starred"),
  IMPORTANT: () => t("widgets.inbox.label.important"),
  SENT: () => t("widgets.inbox.label.sent"),
  DRAFT: () => t("widgets.inbox.label.drafts"),
  SPAM: () => t("widgets.inbox.label.spam"),
  TRASH: () => t("widgets.inbox.label.trash"),
  CATEGORY_PERSONAL: () => t("widgets.inbox.label.personal"),
  CATEGORY_SOCIAL: () => t("widgets.inbox.label.social"),
  CATEGORY_PROMOTIONS: () => t("widgets.inbox.label.promotions"),
  CATEGORY_UPDATES: () => t("widgets.inbox.label.updates"),
  CATEGORY_FORUMS: () => t("widgets.inbox.label.forums"),
};

export function labelName(label: Pick<MailLabel, "id" | "name" | "type">): string {
  const system = label.type === "system" ? SYSTEM_NAMES[label.id] : undefined;
  return system ? system() : label.name;
}

/** Inbox first, then the other system labels people use, then the user's own, by name. */
export function sortLabels(labels: readonly MailLabel[]): MailLabel[] {
  const order = Object.keys(SYSTEM_NAMES);
  return labels
    .filter((l) => l.type === "user" || order.includes(l.id))
    .sort((a, b) => {
      if (a.type !== b.type) return a.type === "system" ? -1 : 1;
      if (a.type === "system") return order.indexOf(a.id) - order.indexOf(b.id);
      return a.name.localeCompare(b.name);
    });
}

/** Today's mail shows its time, this week's its weekday, older mail its date. */
export function mailDate(iso: string, now: number, options: TimeOptions, locale = appLocale()): string {
  const today = dayKey(now, options.timezone);
  const day = dayKey(iso, options.timezone);
  if (day === today) return formatTime(iso, options, locale);
  const age = now - Date.parse(iso);
  if (age < 6 * 86_400_000 && age > 0)
    return new Intl.DateTimeFormat(locale, { timeZone: options.timezone, weekday: "short" }).format(
      new Date(iso),
    );
  const sameYear = day.slice(0, 4) === today.slice(0, 4);
  return new Intl.DateTimeFormat(locale, {
    timeZone: options.timezone,
    day: "numeric",
    month: "short",
    year: sameYear ? undefined : "numeric",
  }).format(new Date(iso));
}

export function senderName(from: MailSummary["from"]): string {
  return from.name.trim() || from.email || t("widgets.inbox.unknownSender");
}
