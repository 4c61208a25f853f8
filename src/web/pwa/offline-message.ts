import { t } from "../i18n/i18n";

/**
 * The banner's sentence: the time the data was loaded, with its date when that was not today
 * (`now`'s day, in the reader's time zone).
 */
export function offlineMessage(loadedAt: number | null, now: number, locale: string): string {
  if (loadedAt === null) return t("pwa.offline.undated");
  const loaded = new Date(loadedAt);
  if (loaded.toDateString() === new Date(now).toDateString()) {
    const time = new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit" }).format(loaded);
    return t("pwa.offline.at", { time });
  }
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(loaded);
  return t("pwa.offline.on", { date });
}
