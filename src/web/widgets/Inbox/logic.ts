import type { MailLabel, MailSummary } from "../../lib/data-api";
import { dayKey, formatTime, type TimeOptions } from "../data/format";

const SYSTEM_NAMES: Record<string, string> = {
  INBOX: "Inbox",
  UNREAD: "Unread",
  STARRED: "Starred",
  IMPORTANT: "Important",
  SENT: "Sent",
  DRAFT: "Drafts",
  SPAM: "Spam",
  TRASH: "Trash",
  CATEGORY_PERSONAL: "Personal",
  CATEGORY_SOCIAL: "Social",
  CATEGORY_PROMOTIONS: "Promotions",
  CATEGORY_UPDATES: "Updates",
  CATEGORY_FORUMS: "Forums",
};

export function labelName(label: Pick<MailLabel, "id" | "name" | "type">): string {
  return label.type === "system" ? (SYSTEM_NAMES[label.id] ?? label.name) : label.name;
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
export function mailDate(iso: string, now: number, options: TimeOptions, locale?: string): string {
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
  return from.name.trim() || from.email || "Unknown sender";
}
