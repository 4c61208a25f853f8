import { eq, sql } from "drizzle-orm";
import { pickLanguage } from "../../contract/languages.js";
import type { ServerText } from "../../contract/server-text.js";
import type { Db } from "../db/client.js";
import { settings, user } from "../db/schema.js";

/**
 * The languages a person reads, best first: the one chosen in settings (`config.locale`), else
 * what their browser asked for when they last signed in. Empty for someone unknown.
 */
async function languagesOf(db: Db, userId: string): Promise<string[]> {
  const [row] = await db
    .select({ chosen: sql<string | null>`${settings.config}->>'locale'`, browser: user.languages })
    .from(user)
    .leftJoin(settings, eq(settings.userId, user.id))
    .where(eq(user.id, userId));
  if (!row) return [];
  return [...(row.chosen ? [row.chosen] : []), ...(row.browser ? row.browser.split(",") : [])];
}

/**
 * `text` in the language of the person it is for (read on `db`, the caller's transaction where
 * there is one). The catalogs and i18next load with the first text written: most starts write none.
 */
export async function inRecipientLanguage(db: Db, userId: string, text: ServerText): Promise<string> {
  const [{ SERVER_LANGUAGES, translate }, wanted] = await Promise.all([
    import("./translator.js"),
    languagesOf(db, userId),
  ]);
  return translate(pickLanguage(wanted, SERVER_LANGUAGES), text);
}
