// ESLint runs one rule only: no hard-coded user-visible text in the web app's components
// (Biome lints everything else). Part of `npm run lint:i18n`.
import tsParser from "@typescript-eslint/parser";
import i18next from "eslint-plugin-i18next";

export default [
  {
    files: ["src/web/**/*.tsx", "src/widgets/*/web/**/*.tsx"],
    ignores: ["**/*.test.tsx"],
    languageOptions: { parser: tsParser, parserOptions: { ecmaFeatures: { jsx: true } } },
    plugins: { i18next },
    rules: {
      "i18next/no-literal-string": [
        "error",
        {
          // Text inside JSX, and strings given to the attributes people read or hear.
          mode: "jsx-only",
          // <code> holds literals (env names, values to type); <Trans> is translated as a whole.
          "jsx-components": { exclude: ["Trans", "code"] },
          "jsx-attributes": {
            include: [
              "^aria-(label|description|roledescription|valuetext|placeholder)$",
              "^(title|alt|placeholder|label|legend|hint|description|message|heading|caption|summary)$",
              "^\\w+(Label|Text|Title|Message|Hint)$",
            ],
          },
          callees: {
            exclude: [
              "t",
              "i18n(ext)?",
              "require",
              "addEventListener",
              "removeEventListener",
              "getElementById",
              "includes",
              "startsWith",
              "endsWith",
              "classNames",
              "cx",
              "Icon",
            ],
          },
          words: {
            // Punctuation, numbers, symbols, emoji, constants and brand names are not sentences to translate.
            exclude: [
              "[0-9!-/:-@[-`{-~\\s·•…×→←↑↓›‹–—✓°]+",
              // Colours and one-letter ids handed to previews and keys.
              "^#[0-9a-fA-F]{3,8}$",
              "^[a-z]$",
              // Emoji (the regexes run without the u flag: astral symbols are surrogate pairs).
              "^[\\uD800-\\uDFFF\\u2600-\\u27BF\\uFE0F\\u200D]+$",
              // Example addresses in placeholders: the same in every language.
              "^(https?://)?[\\w-]+(\\.[\\w-]+)+(:\\d+)?(/[\\w./-]*)?$",
              "^[A-Z0-9_]+$",
              "^(Tessera|GitHub|Google|Notion)$",
            ],
          },
        },
      ],
    },
  },
];
