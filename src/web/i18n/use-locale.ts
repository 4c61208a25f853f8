import { useTranslation } from "react-i18next";
import { formattingLocale } from "./i18n";

/** The locale for every Intl formatter: the app's language, in the reader's regional variant. */
export function useLocale(): string {
  return formattingLocale(useTranslation().i18n.language);
}
