import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  randomUUID,
  verify,
} from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A push service on 127.0.0.1 that checks what real ones check (Mozilla autopush, FCM), and plays
 * the browser's side too: each subscription it hands out has its own ECDH P-256 key pair and
 * 16-byte auth secret, so it can decrypt what the app sent.
 *
 * - `Authorization: vapid t=<JWT>, k=<public key>` (RFC 8292): ES256 signature verified with `k`,
 *   `k` equal to the app's VAPID public key (what the browser subscribed with), `aud` the
 *   endpoint's origin, `exp` in the future and at most 24 h away, `sub` present.
 * - `Content-Encoding: aes128gcm`, `TTL` present; body decrypted per RFC 8291 + RFC 8188.
 * - 201 on success; 410 for endpoints marked gone; 500 or 429 (with Retry-After) on request.
 * Anything refused is kept in `refusals` (tests expect it empty) and answered 400/401/403.
 */

export interface PushSubscriptionJson {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface FakeSubscription {
  json: PushSubscriptionJson;
  /** Plaintexts received, in order. */
  received: string[];
  /** Resolves once `count` messages have arrived (fails after `ms`). */
  until(count: number, ms?: number): Promise<string[]>;
  /** Answers 410 Gone from now on. */
  gone(): void;
  /** Answers 500 to the next `times` deliveries. */
  failNext(times?: number): void;
  /** Answers the next delivery 429 with `Retry-After: seconds`. */
  rateLimitNext(seconds: number): void;
  /** When each request arrived (ms), whatever the answer. */
  arrivals: number[];
  /** Requests that reached this endpoint, whatever the answer. */
  attempts: number;
}

interface Entry extends FakeSubscription {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
  isGone: boolean;
  failures: number;
  retryAfter: number | null;
  waiters: (() => void)[];
}

const b64u = (buffer: Buffer) => buffer.toString("base64url");

export class FakePushService {
  readonly refusals: string[] = [];
  private readonly entries = new Map<string, Entry>();
  private vapidKey: string | null = null;

  private constructor(
    private readonly server: ReturnType<typeof createServer>,
    readonly origin: string,
  ) {}

  static async start(): Promise<FakePushService> {
    let fake: FakePushService | null = null;
    const server = createServer((req, res) => {
      fake!.handle(req, res).catch((error) => {
        fake!.refusals.push(`crash: ${error}`);
        res.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakePushService(server, `http://127.0.0.1:${port}`);
    return fake;
  }

  /** The VAPID public key the app's browsers subscribe with: any other key is refused (403). */
  expectVapidKey(publicKey: string) {
    this.vapidKey = publicKey;
  }

  /** A new browser subscription, as `PushSubscription.toJSON()` would give it. */
  subscribe(): FakeSubscription {
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const auth = randomBytes(16);
    const endpoint = `${this.origin}/wpush/v2/${randomUUID()}`;
    const entry: Entry = {
      json: { endpoint, keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) } },
      received: [],
      attempts: 0,
      arrivals: [],
      retryAfter: null,
      ecdh,
      auth,
      isGone: false,
      failures: 0,
      waiters: [],
      gone: () => {
        entry.isGone = true;
      },
      failNext: (times = 1) => {
        entry.failures += times;
      },
      rateLimitNext: (seconds) => {
        entry.retryAfter = seconds;
      },
      until: async (count, ms = 15_000) => {
        const deadline = Date.now() + ms;
        while (entry.received.length < count) {
          const left = deadline - Date.now();
          if (left <= 0)
            throw new Error(`waited ${ms} ms for ${count} push(es), got ${entry.received.length}`);
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, left);
            entry.waiters.push(() => {
              clearTimeout(timer);
              resolve();
            });
          });
        }
        return entry.received;
      },
    };
    this.entries.set(new URL(endpoint).pathname, entry);
    return entry;
  }

  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private refuse(res: ServerResponse, status: number, reason: string) {
    this.refusals.push(reason);
    res
      .writeHead(status, { "content-type": "application/json" })
      .end(JSON.stringify({ errno: 109, message: reason }));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const entry = this.entries.get(req.url ?? "");
    if (req.method !== "POST") return this.refuse(res, 405, `method ${req.method}`);
    if (!entry) return this.refuse(res, 404, `unknown endpoint ${req.url}`);
    entry.attempts++;
    entry.arrivals.push(Date.now());
    if (entry.isGone) return void res.writeHead(410).end();
    const problem = this.checkVapid(req.headers.authorization, this.origin);
    if (problem) return this.refuse(res, problem.status, problem.reason);
    if (req.headers["content-encoding"] !== "aes128gcm")
      return this.refuse(res, 400, `content-encoding ${req.headers["content-encoding"]}`);
    if (!/^\d+$/.test(String(req.headers.ttl ?? ""))) return this.refuse(res, 400, "TTL header missing");
    if (entry.retryAfter !== null) {
      const seconds = entry.retryAfter;
      entry.retryAfter = null;
      return void res.writeHead(429, { "retry-after": String(seconds) }).end();
    }
    if (entry.failures > 0) {
      entry.failures--;
      return void res.writeHead(500).end();
    }
    let plaintext: string;
    try {
      plaintext = decrypt(body, entry.ecdh, entry.auth);
    } catch (error) {
      return this.refuse(res, 400, `payload does not decrypt: ${error}`);
    }
    entry.received.push(plaintext);
    for (const wake of entry.waiters.splice(0)) wake();
    res.writeHead(201, { location: `${this.origin}/m/${randomUUID()}` }).end();
  }

  private checkVapid(header: string | undefined, origin: string): { status: number; reason: string } | null {
    const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
    if (!match) return { status: 401, reason: `Authorization is not vapid t=, k=: ${header}` };
    const [, jwt, k] = match as unknown as [string, string, string];
    if (this.vapidKey !== null && k !== this.vapidKey)
      return { status: 403, reason: "signed with another VAPID key than the subscription's" };
    const [h, p, s] = jwt.split(".");
    if (!h || !p || !s) return { status: 401, reason: "JWT is not three parts" };
    const head = JSON.parse(Buffer.from(h, "base64url").toString());
    if (head.alg !== "ES256") return { status: 401, reason: `JWT alg ${head.alg}` };
    const pub = Buffer.from(k, "base64url");
    if (pub.length !== 65 || pub[0] !== 4) return { status: 401, reason: "k is not a P-256 point" };
    const key = createPublicKey({
      format: "jwk",
      key: { kty: "EC", crv: "P-256", x: b64u(pub.subarray(1, 33)), y: b64u(pub.subarray(33, 65)) },
    });
    const valid = verify(
      "sha256",
      Buffer.from(`${h}.${p}`),
      { key, dsaEncoding: "ieee-p1363" },
      Buffer.from(s, "base64url"),
    );
    if (!valid) return { status: 401, reason: "JWT signature does not verify" };
    const claims = JSON.parse(Buffer.from(p, "base64url").toString());
    const now = Date.now() / 1000;
    if (claims.aud !== origin) return { status: 401, reason: `aud ${claims.aud} is not ${origin}` };
    if (!(typeof claims.exp === "number" && claims.exp > now && claims.exp <= now + 24 * 3600))
      return { status: 401, reason: `exp ${claims.exp} not within 24 h` };
    if (typeof claims.sub !== "string" || !/^(mailto:|https:)/.test(claims.sub))
      return { status: 401, reason: `sub ${claims.sub}` };
    return null;
  }
}

/** RFC 8291 section 3.4 key derivation, then the RFC 8188 aes128gcm record (one record). */
function decrypt(body: Buffer, ua: ReturnType<typeof createECDH>, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  if (idlen !== 65) throw new Error(`keyid is ${idlen} bytes, not the sender's 65-byte public key`);
  if (ciphertext.length > rs) throw new Error("more than one record");
  const info = Buffer.concat([Buffer.from("WebPush: info\0"), ua.getPublicKey(), asPublic]);
  const ikm = Buffer.from(hkdfSync("sha256", ua.computeSecret(asPublic), auth, info, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(-16));
  const plain = Buffer.concat([decipher.update(ciphertext.subarray(0, -16)), decipher.final()]);
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  // The last record's padding delimiter is 0x02 (RFC 8188 section 2).
  if (plain[end] !== 2) throw new Error(`padding delimiter ${plain[end]}, expected 2`);
  return plain.subarray(0, end).toString("utf8");
}
