import base from "./i18next-parser.config.mjs";

/**
 * The server's catalogs (src/server/i18n/locales): the texts it writes to people itself, named
 * by `serverText("key")` in the server, the widgets' server halves and their contracts (alert
 * rules). Same languages as the web app's catalogs, same rules; `npm run lint:i18n` checks both.
 */
export default {
  ...base,
  input: [
    "src/server/**/*.ts",
    "src/contract/**/*.ts",
    "src/widgets/*/server/**/*.ts",
    "src/widgets/*/contract.ts",
    "!**/*.test.ts",
  ],
  output: `${process.env.I18N_CATALOGS ?? "src/server/i18n/locales"}/$LOCALE.json`,
  lexers: { ts: [{ lexer: "JavascriptLexer", functions: ["serverText"] }] },
  keepRemoved: false,
};
