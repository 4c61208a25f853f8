import { useEffect } from "react";
import { browserLanguage, switchLanguage } from "./i18n";

/** Follows the language kept in settings (null: the browser's), switching without a reload. */
export function useAppLanguage(locale: string | null): void {
  useEffect(() => {
    void switchLanguage(locale ?? browserLanguage());
  }, [locale]);
}
