import de from "../../src/web/i18n/locales/de.json";
import en from "../../src/web/i18n/locales/en.json";
import fr from "../../src/web/i18n/locales/fr.json";

type Catalog = { [key: string]: string | Catalog };
type Vars = Record<string, string | number>;

/** A catalog's sentence with its {{placeholders}} filled, as i18next renders it. */
function say(catalog: Catalog, key: string, vars: Vars = {}): string {
  let node: string | Catalog = catalog;
  for (const part of key.split(".")) {
    if (typeof node === "string" || !(part in node)) throw new Error(`no key ${key}`);
    node = node[part]!;
  }
  if (typeof node !== "string") throw new Error(`${key} is not a sentence`);
  return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? ""));
}

/** What the app says in English and in German, read from its catalogs rather than copied. */
export const inEnglish = (key: string, vars?: Vars) => say(en, key, vars);
export const inGerman = (key: string, vars?: Vars) => say(de, key, vars);
export const inFrench = (key: string, vars?: Vars) => say(fr, key, vars);
