import { setTimeout as sleep } from "node:timers/promises";
import { notFoundBecause, upstreamFailed } from "../http/errors.js";
import type { UpstreamFetch, UpstreamResponse } from "../upstream/fetch.js";
import type { Signer } from "./signer.js";
import type { Throttle } from "./throttle.js";

/** One try plus two retries after a 429, each waiting for the exchange's Retry-After and a slot. */
const MAX_ATTEMPTS = 3;
const SERVICE = "the exchange";

export interface ExchangeClientOptions {
  baseUrl: string;
  sign: Signer;
  throttle: Throttle;
  fetch: UpstreamFetch;
  /** Aborted when the app closes, so nothing waits for a slot past shutdown. */
  closing: AbortSignal;
}

/** GETs a path (with query) from the exchange: a 2xx answer, or a ProblemError. */
export type ExchangeGet = (requestPath: string, what: string) => Promise<UpstreamResponse>;

/** The exchange's side of the upstream layer: signing, the shared rate limit, 429 retries and its statuses. */
export function createExchangeClient({
  baseUrl,
  sign,
  throttle,
  fetch,
  closing,
}: ExchangeClientOptions): ExchangeGet {
  return async (requestPath, what) => {
    for (let tries = 1; ; tries++) {
      const release = await throttle(closing);
      const response = await fetch({
        url: baseUrl + requestPath,
        service: SERVICE,
        what,
        headers: sign("GET", requestPath),
        pinned: true,
      }).then(
        (answer) => {
          release("answered");
          return answer;
        },
        (error: unknown) => {
          // Timed out or cut off: the request may reach the exchange after all.
          release("unanswered");
          throw error;
        },
      );
      if (response.status === 429 && tries < MAX_ATTEMPTS) {
        await sleep(retryAfterMs(response.headers.get("retry-after"), tries), undefined, {
          signal: closing,
        }).catch(() => {});
        continue;
      }
      if (response.status === 429) {
        throw upstreamFailed(
          `The exchange kept answering 429 Too Many Requests for ${what} after ${tries} tries`,
        );
      }
      if (response.status < 200 || response.status > 299)
        throw fromStatus(response.status, upstreamMessage(response.text), what);
      return response;
    }
  };
}

/** Honours the exchange's Retry-After within reason; otherwise backs off 1 s, then 2 s. */
function retryAfterMs(header: string | null, tries: number) {
  const seconds = Number(header);
  if (header && Number.isFinite(seconds) && seconds >= 0) return Math.min(Math.max(seconds, 0.5), 5) * 1000;
  return 1000 * 2 ** (tries - 1);
}

/** The exchange's `{message}`, cut short and stripped of control characters before it reaches a detail. */
function upstreamMessage(text: string): string {
  try {
    const message = (JSON.parse(text) as { message?: unknown })?.message;
    if (typeof message === "string") return message.replace(/[^\x20-\x7e]/g, " ").slice(0, 120);
  } catch {}
  return "";
}

/** A 401 means one of our credentials or our clock is wrong: say which, and what to check. */
function credentialCause(message: string): string {
  if (/timestamp|expired|clock/i.test(message))
    return "clock skew: the request timestamp was outside the exchange's window; check the server clock (NTP)";
  if (/signature/i.test(message)) return "bad signature: check EXCHANGE_CLIENT_SECRET";
  if (/passphrase/i.test(message)) return "bad passphrase: check EXCHANGE_PASSPHRASE";
  if (/key/i.test(message)) return "bad API key: check EXCHANGE_CLIENT_ID";
  return "credentials refused: check EXCHANGE_CLIENT_ID, EXCHANGE_CLIENT_SECRET and the server clock";
}

function fromStatus(status: number, message: string, what: string) {
  const quoted = message ? ` ("${message}")` : "";
  if (status === 401)
    return upstreamFailed(
      `The exchange refused our request for ${what}${quoted}: ${credentialCause(message)}`,
    );
  if (status === 404) return notFoundBecause(`The exchange has no ${what}${quoted}`);
  return upstreamFailed(`The exchange answered ${status} for ${what}${quoted}`);
}
