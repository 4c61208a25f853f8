import { eq } from "drizzle-orm";
import { AVATAR_TYPES, type AvatarType, type Profile } from "../../contract/account.js";
import type { AppContext } from "../context.js";
import { user } from "../db/schema.js";
import { badRequest } from "../http/errors.js";
import { loadProfile } from "./profile.js";

const DATA_URL = /^data:([a-z]+\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/;

/** What the first bytes say the image is; only the three types a picture may be. */
export function sniffImage(bytes: Uint8Array): AvatarType | null {
  const starts = (...signature: number[]) => signature.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  // "RIFF", four bytes of length, "WEBP".
  if (starts(0x52, 0x49, 0x46, 0x46) && [0x57, 0x45, 0x42, 0x50].every((b, i) => bytes[8 + i] === b))
    return "image/webp";
  return null;
}

const refuse = (message: string) =>
  badRequest(`The picture was not accepted: ${message}`, [{ path: "/image", message }]);

/**
 * A picture as it may be stored: a base64 data: URL of PNG, JPEG or WebP whose bytes are that
 * type (an SVG could carry script; a mislabelled file is refused rather than trusted). Answers
 * the URL rebuilt from what was checked.
 */
export function checkAvatar(value: string): string {
  const match = DATA_URL.exec(value);
  if (!match) throw refuse("it must be a base64 data: URL");
  const [, type, base64] = match as unknown as [string, string, string];
  if (!(AVATAR_TYPES as readonly string[]).includes(type))
    throw refuse(`only ${AVATAR_TYPES.join(", ")} images are accepted, not ${type}`);
  if (base64.length === 0 || base64.length % 4 !== 0) throw refuse("its base64 is cut short");
  const bytes = Buffer.from(base64, "base64");
  const sniffed = sniffImage(bytes);
  if (sniffed !== type)
    throw refuse(sniffed ? `it says ${type} but its bytes are ${sniffed}` : `its bytes are not ${type}`);
  return `data:${type};base64,${base64}`;
}

/** Sets (a checked data: URL) or removes (null) the caller's picture. */
export async function setAvatar(ctx: AppContext, userId: string, image: string | null): Promise<Profile> {
  const { db } = ctx.database;
  const stored = image === null ? null : checkAvatar(image);
  await db.update(user).set({ image: stored, updatedAt: new Date() }).where(eq(user.id, userId));
  await ctx.sessions.forgetUser(userId);
  return loadProfile(db, userId);
}
