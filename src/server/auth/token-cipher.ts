import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const PREFIX = "enc:v1:";

/**
 * AES-256-GCM for OAuth tokens at rest. The stored form carries a version prefix so a value is
 * never encrypted twice and a future key rotation can tell old rows apart.
 */
export interface TokenCipher {
  encrypt(plain: string): string;
  decrypt(stored: string): string;
  isEncrypted(value: string): boolean;
}

export function createTokenCipher(base64Key: string): TokenCipher {
  const key = Buffer.from(base64Key, "base64");
  if (key.length !== 32) throw new Error("token key must be 32 bytes");
  return {
    isEncrypted: (value) => value.startsWith(PREFIX),
    encrypt(plain) {
      if (plain.startsWith(PREFIX)) return plain;
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
    },
    decrypt(stored) {
      if (!stored.startsWith(PREFIX)) throw new Error("value is not an encrypted token");
      const raw = Buffer.from(stored.slice(PREFIX.length), "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    },
  };
}
