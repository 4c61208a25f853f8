import {
  addressNotAllowed,
  ProblemError,
  unavailable,
  upstreamFailed,
  upstreamTimeout,
} from "../http/errors.js";
import type { AddressGuard, GuardedInit, Reach } from "./address-guard.js";

/** Larger answers are refused: no upstream we call sends anything near this. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** A user-given URL may point at anything; a feed or an icon is far smaller than this. */
const MAX_GUARDED_BODY_BYTES = 4 * 1024 * 1024;
/** http -> https and a moved feed are common; a chain longer than this is not a feed. */
const MAX_REDIRECTS = 3;

export interface UpstreamRequest {
  url: string;
  /** Who answers, for error details: "the exchange", "Open-Meteo", "Google". */
  service: string;
  /** What was asked for, for error details: "candles for BTC-USD", "the forecast". */
  what: string;
  method?: "GET" | "POST" | "HEAD" | "DELETE";
  /** A deadline shorter than the configured one (a status check must not wait 30 s); never longer. */
  timeoutMs?: number;
  /** Only the status and headers matter (a status check): the body is not read, nothing is kept. */
  discardBody?: boolean;
  headers?: Record<string, string>;
  /** Bytes for binary bodies (an encrypted push message). */
  body?: string | URLSearchParams | Uint8Array;
  /**
   * The URL is built on a base URL from the operator's config (the exchange, a provider's API and
   * token endpoint, Open-Meteo, the OIDC issuer), so config decides where it goes, loopback
   * included (a test's fake, a service at home): no address guard, redirects are errors. Any
   * other URL is treated as one a person typed (a feed, an icon, a status check, a push endpoint):
   * it may not reach private, loopback or link-local addresses unless FETCH_ALLOW_PRIVATE names
   * them (address-guard.ts), each redirect hop is checked, and the body is bounded tighter.
   */
  pinned?: boolean;
  /**
   * For a guarded URL: false answers a redirect as it came instead of following it (a push
   * service never redirects, and the next hop's URL would end up in error messages).
   */
  followRedirects?: boolean;
  /**
   * For a guarded URL of a saved service (an integration): whether its private address may be
   * reached and which TLS certificates it is trusted with.
   */
  reach?: Reach;
}

export interface UpstreamResponse {
  status: number;
  headers: Headers;
  /** The body as UTF-8 text (decoded on first read). */
  readonly text: string;
  /** The body as it came (images). */
  bytes: Buffer;
  service: string;
  what: string;
}

/** One outside HTTP call; any HTTP status comes back for the caller (or a Source) to judge. */
export type UpstreamFetch = (request: UpstreamRequest) => Promise<UpstreamResponse>;

export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The one fetch wrapper every outside call goes through: a deadline from config covering headers
 * and body (504), network failures as 502, no HTTP cache, a bound on the body, and an abort when
 * the app closes (503), so nothing waits on an upstream past shutdown. Every URL goes through the
 * address guard unless the request says it is pinned from config (the operator's services,
 * called without redirects): a URL a person typed needs no opt-in to be checked.
 */
export function createUpstreamFetch({
  timeoutMs,
  closing,
  guard,
}: {
  timeoutMs: number;
  closing: AbortSignal;
  guard: AddressGuard;
}): UpstreamFetch {
  return async ({
    url,
    service,
    what,
    method = "GET",
    headers,
    body,
    pinned = false,
    followRedirects = true,
    reach,
    ...request
  }) => {
    if (closing.aborted) throw shuttingDown();
    const deadlineMs = Math.min(request.timeoutMs ?? timeoutMs, timeoutMs);
    // One controller per call, tied to shutdown only while the call runs.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, deadlineMs);
    const onClose = () => controller.abort();
    closing.addEventListener("abort", onClose, { once: true });
    try {
      const init = {
        method,
        headers: { accept: "application/json", "user-agent": "Tessera", ...headers },
        // Bytes go as an ArrayBuffer copy: fetch's body types take no Buffer view of a shared pool.
        body: body instanceof Uint8Array ? Uint8Array.from(body).buffer : body,
        signal: controller.signal,
      };
      const response = pinned
        ? await fetch(url, { ...init, cache: "no-store", redirect: "error" })
        : await followGuarded(url, init, guard, followRedirects ? MAX_REDIRECTS : 0, reach);
      if (request.discardBody) await response.body?.cancel();
      const bytes = request.discardBody
        ? Buffer.alloc(0)
        : await readBounded(
            response,
            pinned ? MAX_BODY_BYTES : MAX_GUARDED_BODY_BYTES,
            `${capitalized(service)} sent an oversized body for ${what}`,
          );
      let text: string | undefined;
      return {
        status: response.status,
        headers: response.headers as Headers,
        bytes,
        get text() {
          text ??= bytes.toString("utf8");
          return text;
        },
        service,
        what,
      };
    } catch (error) {
      if (timedOut) {
        throw upstreamTimeout(
          `${capitalized(service)} did not answer within ${deadlineMs / 1000} s for ${what}`,
        );
      }
      if (closing.aborted) throw shuttingDown();
      if (error instanceof ProblemError) throw error;
      // The guard refuses inside the connection; fetch reports that as its cause.
      const cause = (error as { cause?: unknown })?.cause;
      if (cause instanceof ProblemError) throw cause;
      throw upstreamFailed(`Could not reach ${service} for ${what}: ${networkReason(error)}`);
    } finally {
      clearTimeout(timer);
      closing.removeEventListener("abort", onClose);
    }
  };
}

const shuttingDown = () => unavailable("The server is shutting down", 1);

function networkReason(error: unknown): string {
  // fetch's own refusals (a port browsers never call, "bad port") carry a message and no code.
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error as Error)?.name ?? "network error";
}

/** Fetches a user-given URL through the guard, following redirects itself so each hop is checked. */
async function followGuarded(
  url: string,
  init: GuardedInit,
  guard: AddressGuard,
  maxRedirects: number,
  reach?: Reach,
) {
  let current = new URL(url);
  for (let hop = 0; ; hop++) {
    if (current.protocol !== "http:" && current.protocol !== "https:")
      throw addressNotAllowed(`Only http and https addresses can be fetched, not ${current.protocol}`);
    guard.checkUrl(current, reach);
    const response = await guard.fetch(current, init, reach);
    const location = response.headers.get("location");
    if (response.status < 300 || response.status > 399 || !location || maxRedirects === 0) return response;
    await response.body?.cancel();
    if (hop === maxRedirects) throw upstreamFailed(`More than ${maxRedirects} redirects from ${url}`);
    current = new URL(location, current);
  }
}

/** The body, refused as soon as it passes `max` bytes (declared or streamed). */
async function readBounded(
  response: { headers: { get(name: string): string | null }; body: unknown },
  max: number,
  tooLarge: string,
): Promise<Buffer> {
  if (Number(response.headers.get("content-length") ?? 0) > max) {
    await (response.body as ReadableStream | null)?.cancel();
    throw upstreamFailed(tooLarge);
  }
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) throw upstreamFailed(tooLarge);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
