/**
 * The rules of the account's own settings as plain values, for the web app to say and check
 * (account.ts builds the API's schemas from them; importing that would bring the schema builders
 * into the browser's bundle). src/server/auth/auth.ts configures better-auth with the password
 * rules from here.
 */

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const EMAIL_MAX = 254;

/** The picture's side in pixels: the browser crops and scales to this square before it sends. */
export const AVATAR_PX = 128;
/**
 * The most a picture's data URL may hold, in characters (about 36 KiB of image). Every answer that
 * names the user carries it, so it stays small; 128 px WebP is usually 3 to 8 KB.
 */
export const AVATAR_MAX_CHARS = 48 * 1024;
export const AVATAR_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type AvatarType = (typeof AVATAR_TYPES)[number];
