import Negotiator from "negotiator";

/** Enough to find a catalog: the first few a browser lists are the ones people mean. */
const KEPT = 6;
/** A BCP 47 tag as browsers send them ("de", "pt-BR", "zh-Hant-TW"); anything else is dropped. */
const TAG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8}){0,3}$/;

/**
 * The languages an Accept-Language header asks for, most wanted first (q-values honoured by
 * negotiator), as the comma-separated list `user.languages` keeps; null when it names none.
 */
export function browserLanguages(header: string | undefined): string | null {
  if (!header) return null;
  const tags = new Negotiator({ headers: { "accept-language": header } })
    .languages()
    .filter((tag) => TAG.test(tag))
    .slice(0, KEPT);
  return tags.length > 0 ? tags.join(",") : null;
}
