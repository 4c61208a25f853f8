import { useTranslation } from "react-i18next";

/** The app's current language, for every Intl formatter (never the browser default). */
export function useLocale(): string {
  return useTranslation().i18n.language;
}
