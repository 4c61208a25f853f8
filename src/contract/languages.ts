/** The language everything falls back to: the catalogs' reference, and the answer when nothing matches. */
export const FALLBACK_LANGUAGE = "en";

/**
 * The supported language closest to what a reader asks for, in their order of preference: an
 * exact tag ("pt-BR"), else the same base language ("de-AT" reads "de", "pt-PT" reads "pt-BR"),
 * else English. One rule for the web app (the browser's languages) and the server (a recipient's).
 */
export function pickLanguage(wanted: readonly string[], available: readonly string[]): string {
  for (const tag of wanted) {
    const lower = tag.toLowerCase();
    const exact = available.find((l) => l.toLowerCase() === lower);
    if (exact) return exact;
    const base = lower.split("-")[0];
    const sameBase =
      available.find((l) => l.toLowerCase() === base) ??
      available.find((l) => l.toLowerCase().split("-")[0] === base);
    if (sameBase) return sameBase;
  }
  return FALLBACK_LANGUAGE;
}
