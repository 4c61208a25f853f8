/**
 * A text the server writes to a person (a reminder, an alert, a test push), named by its key in
 * the server's catalogs (src/server/i18n/locales) with the values it fills in. It becomes words
 * when it is recorded, in the recipient's language: a widget's rules say what happened, not in
 * which language.
 */
export interface ServerText {
  key: string;
  /** Filled in as they are; a value that is itself a ServerText (a default title) is translated first. */
  values?: Readonly<Record<string, string | number | ServerText>>;
}

/**
 * The one way to name a server text: `npm run lint:i18n` finds every `serverText("key")` and
 * checks that each catalog has it, so keys are literal here, never built.
 */
export function serverText(key: string, values?: ServerText["values"]): ServerText {
  return values ? { key, values } : { key };
}
