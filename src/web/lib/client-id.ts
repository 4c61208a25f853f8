import type { CLIENT_ID_HEADER as ContractHeader } from "../../contract/sharing";

/**
 * This tab's id, made once per page load: every write carries it (`X-Client-Id`), and the live
 * events a write causes carry it back, so the tab that made a change skips its own echo
 * (DESIGN section 14). Random, at most 64 characters of [A-Za-z0-9_-], as the server accepts.
 */
export const CLIENT_ID_HEADER: typeof ContractHeader = "x-client-id";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

export function makeClientId(bytes = crypto.getRandomValues(new Uint8Array(16))): string {
  // 64 symbols: each byte's low six bits pick one, so 16 bytes give 96 random bits.
  return Array.from(bytes, (b) => ALPHABET[b & 63]).join("");
}

export const CLIENT_ID = makeClientId();
