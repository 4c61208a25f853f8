import { readdirSync } from "node:fs";

// Every catalog file is a language: adding de.json added German, and this check holds it complete.
const CATALOGS = "src/web/i18n/locales";
const locales = readdirSync(CATALOGS)
  .filter((file) => file.endsWith(".json"))
  .map((file) => file.slice(0, -".json".length));

/**
 * i18next-parser reads every t("key") in src/web and the widgets' web/ folders. `npm run i18n:extract` adds new keys to every
 * catalog (empty, to be translated) and drops unused ones; `npm run lint:i18n` fails instead.
 */
export default {
  locales: ["en", ...locales.filter((l) => l !== "en")],
  input: [
    "src/web/**/*.{ts,tsx}",
    "src/widgets/*/web/**/*.{ts,tsx}",
    "!**/*.test.{ts,tsx}",
    "!src/web/i18n/**",
  ],
  // scripts/check-i18n.mjs points this at a scratch copy and compares; `npm run i18n:extract` writes.
  output: `${process.env.I18N_CATALOGS ?? CATALOGS}/$LOCALE.json`,
  defaultNamespace: "translation",
  namespaceSeparator: false,
  keySeparator: ".",
  pluralSeparator: "_",
  contextSeparator: "_",
  createOldCatalogs: false,
  sort: true,
  indentation: 2,
  lineEnding: "lf",
  // `translate` is the plain-function `t` where a component's own `t` would shadow it.
  lexers: {
    ts: [{ lexer: "JavascriptLexer", functions: ["t", "translate"] }],
    tsx: [{ lexer: "JsxLexer", functions: ["t", "translate"] }],
    default: [{ lexer: "JavascriptLexer", functions: ["t", "translate"] }],
  },
  // Keys built at run time (by problem code, widget type, ...): kept although no literal names them.
  // The parser tests "<namespace><key path>", so the patterns are not anchored at the start.
  keepRemoved: [/errors\.codes(\.|$)/, /errors\.auth(\.|$)/],
  verbose: false,
};
