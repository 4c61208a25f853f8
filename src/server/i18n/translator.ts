import i18next, { type TFunction } from "i18next";
import { FALLBACK_LANGUAGE } from "../../contract/languages.js";
import type { ServerText } from "../../contract/server-text.js";
import de from "./locales/de.json";
import en from "./locales/en.json";
import es from "./locales/es.json";
import fr from "./locales/fr.json";
import it from "./locales/it.json";
import nl from "./locales/nl.json";
import pl from "./locales/pl.json";
import ptBR from "./locales/pt-BR.json";

/**
 * The server's catalogs: the texts it writes to people itself (reminders, alerts, a test push).
 * The web app's catalogs hold everything else; `npm run lint:i18n` holds both complete, and the
 * same languages in each. Loaded with the first text (recipients.ts imports this lazily), so a
 * start that writes none loads no i18next.
 */
const CATALOGS = { de, en, es, fr, it, nl, pl, "pt-BR": ptBR };

export const SERVER_LANGUAGES: readonly string[] = Object.keys(CATALOGS).sort();

const instance = i18next.createInstance();
void instance.init({
  resources: Object.fromEntries(
    Object.entries(CATALOGS).map(([language, catalog]) => [language, { translation: catalog }]),
  ),
  fallbackLng: FALLBACK_LANGUAGE,
  initAsync: false,
  // Plain text (a notification, a push body), never HTML: values go in as they are.
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** One translator per catalog, made once: the map never grows with what callers pass. */
const fixed = new Map<string, TFunction>(
  SERVER_LANGUAGES.map((language) => [language, instance.getFixedT(language)]),
);

/** `text` in `language` (one of SERVER_LANGUAGES; anything else reads English). */
export function translate(language: string, text: ServerText): string {
  const t = fixed.get(language) ?? fixed.get(FALLBACK_LANGUAGE)!;
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(text.values ?? {}))
    values[name] = typeof value === "object" ? translate(language, value) : value;
  return t(text.key, values) as string;
}
