import { createHmac } from "node:crypto";

export interface ExchangeCredentials {
  key: string;
  /** The base64 secret as the exchange issued it. */
  secret: string;
  passphrase: string;
}

export type Signer = (method: string, requestPath: string, body?: string) => Record<string, string>;

/**
 * Signs each request as the exchange expects: seconds timestamp + METHOD + path with query +
 * body, HMAC-SHA256 keyed by the decoded secret, base64. Without credentials requests go unsigned
 * (the market data endpoints are public).
 */
export function createSigner(credentials: ExchangeCredentials | null, now: () => number = Date.now): Signer {
  if (!credentials) return () => ({});
  // Decoded once; the secret itself is held only inside this closure.
  const key = Buffer.from(credentials.secret, "base64");
  return (method, requestPath, body = "") => {
    const timestamp = String(Math.floor(now() / 1000));
    const signature = createHmac("sha256", key)
      .update(timestamp + method.toUpperCase() + requestPath + body)
      .digest("base64");
    return {
      "EX-ACCESS-KEY": credentials.key,
      "EX-ACCESS-SIGN": signature,
      "EX-ACCESS-TIMESTAMP": timestamp,
      "EX-ACCESS-PASSPHRASE": credentials.passphrase,
    };
  };
}
