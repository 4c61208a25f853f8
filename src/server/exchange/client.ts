import { setTimeout as sleep } from "node:timers/promises";
import { ProblemError } from "../http/errors.js";
import type { Signer } from "./signer.js";
import type { Throttle } from "./throttle.js";

export const UPSTREAM_TIMEOUT_MS = 5000;
/** One try plus two retries after a 429, each waiting for the exchange's Retry-After and a slot. */
const MAX_ATTEMPTS = 3;
const MAX_BODY_BYTES = 8 * 1024 * 1024;

export interface ExchangeClientOptions {
  baseUrl: string;
  sign: Signer;
  throttle: Throttle;
  /** Aborted when the app closes, so nothing waits on the exchange past shutdown. */
  signal: AbortSignal;
  timeoutMs?: number;
}

/** GETs a path (with query) from the exchange and answers its parsed JSON, or throws a ProblemError. */
export type ExchangeGet = (requestPath: string, label: string) => Promise<unknown>;

const failed = (detail: string) => new ProblemError(502, "upstream_failed", detail);
const shuttingDown = () =>
  new ProblemError(503, "service_unavailable", "The server is shutting down", { retryAfterSeconds: 1 });

export function createExchangeClient({
  baseUrl,
  sign,
  throttle,
  signal,
  timeoutMs = UPSTREAM_TIMEOUT_MS,
}: ExchangeClientOptions): ExchangeGet {
  async function attempt(requestPath: string, label: string) {
    // One controller per attempt, tied to shutdown only while the attempt runs.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onClose = () => controller.abort();
    signal.addEventListener("abort", onClose, { once: true });
    try {
      const response = await fetch(baseUrl + requestPath, {
        headers: { accept: "application/json", "user-agent": "Tessera", ...sign("GET", requestPath) },
        cache: "no-store",
        redirect: "error",
        signal: controller.signal,
      });
      const declared = Number(response.headers.get("content-length") ?? 0);
      if (declared > MAX_BODY_BYTES) {
        await response.body?.cancel();
        throw failed(`The exchange sent an oversized body for ${label}`);
      }
      return { response, text: await response.text() };
    } catch (error) {
      if (error instanceof ProblemError) throw error;
      if (timedOut) {
        throw new ProblemError(
          504,
          "upstream_timeout",
          `The exchange did not answer within ${timeoutMs / 1000} s for ${label}`,
        );
      }
      if (signal.aborted) throw shuttingDown();
      throw failed(`Could not reach the exchange for ${label}: ${networkReason(error)}`);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onClose);
    }
  }

  return async (requestPath, label) => {
    for (let tries = 1; ; tries++) {
      if (signal.aborted) throw shuttingDown();
      const release = await throttle(signal);
      const { response, text } = await attempt(requestPath, label).finally(release);
      if (response.status === 429 && tries < MAX_ATTEMPTS) {
        await sleep(retryAfterMs(response.headers.get("retry-after"), tries), undefined, { signal }).catch(
          () => {},
        );
        continue;
      }
      if (response.status === 429) {
        throw failed(`The exchange kept answering 429 Too Many Requests for ${label} after ${tries} tries`);
      }
      if (!response.ok) throw fromStatus(response.status, upstreamMessage(text), label);
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw failed(`The exchange answered ${label} with a body that is not JSON`);
      }
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

function fromStatus(status: number, message: string, label: string): ProblemError {
  const quoted = message ? ` ("${message}")` : "";
  if (status === 401)
    return failed(`The exchange refused our request for ${label}${quoted}: ${credentialCause(message)}`);
  if (status === 404) return new ProblemError(404, "not_found", `The exchange has no ${label}${quoted}`);
  return failed(`The exchange answered ${status} for ${label}${quoted}`);
}

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string } })?.cause;
  return cause?.code ?? (error as Error)?.name ?? "network error";
}
