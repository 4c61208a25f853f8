import i18next, { type i18n as I18n, type Resource } from "i18next";
import { initReactI18next } from "react-i18next";
import { FALLBACK_LANGUAGE, pickLanguage as pickFrom } from "../../contract/languages";
import en from "./locales/en.json";

/**
 * Every language is one file in ./locales, named by its BCP 47 code: adding de.json adds German.
 * English ships in the bundle (it is the fallback for a key another catalog lacks); every other
 * catalog is its own chunk, fetched only by those who read it.
 */
const catalogs = import.meta.glob<{ default: Resource[string]["translation"] }>([
  "./locales/*.json",
  "!./locales/en.json",
]);

export { FALLBACK_LANGUAGE };

export const LANGUAGES: readonly string[] = [
  FALLBACK_LANGUAGE,
  ...Object.keys(catalogs).map((file) => file.replace(/^.*\/(.+)\.json$/, "$1")),
].sort();

const REMEMBERED = "tessera.locale";

/** The supported language closest to what the reader asks for ("de-AT" → "de"), or English. */
export function pickLanguage(wanted: readonly string[]): string {
  return pickFrom(wanted, LANGUAGES);
}

/** The language of the last session on this device (settings arrive after the first paint), else the browser's. */
export function initialLanguage(): string {
  let remembered: string | null = null;
  try {
    remembered = localStorage.getItem(REMEMBERED);
  } catch {
    // Storage refused (private mode): the browser's languages decide.
  }
  return pickLanguage([
    ...(remembered ? [remembered] : []),
    ...(navigator.languages ?? [navigator.language]),
  ]);
}

/** A language's own name, for the picker ("Deutsch", "English"). */
export function languageName(code: string): string {
  try {
    const name = new Intl.DisplayNames([code], { type: "language" }).of(code) ?? code;
    return name.charAt(0).toLocaleUpperCase(code) + name.slice(1);
  } catch {
    return code;
  }
}

/**
 * The one translator of the page. English is initialised synchronously at import, so plain
 * functions (and unit tests) translate before any language switch.
 */
export const i18n: I18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: FALLBACK_LANGUAGE,
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  resources: { [FALLBACK_LANGUAGE]: { translation: en } },
  initAsync: false,
  // React escapes what it renders; escaping here too would show "&amp;".
  interpolation: { escapeValue: false },
  returnNull: false,
});

async function loadCatalog(language: string): Promise<void> {
  if (language === FALLBACK_LANGUAGE || i18n.hasResourceBundle(language, "translation")) return;
  const load = catalogs[`./locales/${language}.json`];
  if (!load) return;
  i18n.addResourceBundle(language, "translation", (await load()).default, true, true);
}

/** Switches to the reader's language, its catalog loaded before the first render (no flash of English). */
export async function startI18n(language = initialLanguage()): Promise<I18n> {
  await switchLanguage(language);
  return i18n;
}

/** Switches the whole app to a language without a reload, and remembers it for the next visit. */
export async function switchLanguage(language: string): Promise<void> {
  const chosen = pickLanguage([language]);
  await loadCatalog(chosen);
  // Only a real change: every switch re-renders each translated component.
  if (i18n.language !== chosen) await i18n.changeLanguage(chosen);
  // Screen readers pick their voice from it; Intl formatters follow i18n.language.
  if (typeof document !== "undefined") document.documentElement.lang = chosen;
  try {
    localStorage.setItem(REMEMBERED, chosen);
  } catch {
    // Not remembered: the next visit starts from the browser's languages.
  }
}

/** The translator outside React (error messages built in plain functions). */
export const t: I18n["t"] = ((...args: Parameters<I18n["t"]>) => i18n.t(...args)) as I18n["t"];

/**
 * The locale for Intl formatters: the reader's own regional variant of the app's language when
 * the browser names one (a British reader keeps "1 Dec 2030" and "US$", an Austrian "Jänner"),
 * else the language itself.
 */
export function formattingLocale(language: string = i18n.language): string {
  const base = (tag: string) => tag.toLowerCase().split("-")[0];
  const wanted = typeof navigator === "undefined" ? [] : (navigator.languages ?? [navigator.language]);
  return wanted.find((tag) => base(tag) === base(language)) ?? language;
}

/** The browser's own choice among ours, for readers who have not picked a language. */
export function browserLanguage(): string {
  return pickLanguage(typeof navigator === "undefined" ? [] : (navigator.languages ?? [navigator.language]));
}
