import { ProblemError, unavailable, upstreamFailed, upstreamTimeout } from "../http/errors.js";

/** Larger answers are refused before they are read: no upstream we call sends anything near this. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface UpstreamRequest {
  url: string;
  /** Who answers, for error details: "the exchange", "Open-Meteo", "Google". */
  service: string;
  /** What was asked for, for error details: "candles for BTC-USD", "the forecast". */
  what: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string | URLSearchParams;
}

export interface UpstreamResponse {
  status: number;
  headers: Headers;
  text: string;
  service: string;
  what: string;
}

/** One outside HTTP call; any HTTP status comes back for the caller (or a Source) to judge. */
export type UpstreamFetch = (request: UpstreamRequest) => Promise<UpstreamResponse>;

export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The one fetch wrapper every outside call goes through: a deadline from config covering headers
 * and body (504), network failures as 502, no redirects, no HTTP cache, a bound on the body, and
 * an abort when the app closes (503), so nothing waits on an upstream past shutdown.
 */
export function createUpstreamFetch({
  timeoutMs,
  closing,
}: {
  timeoutMs: number;
  closing: AbortSignal;
}): UpstreamFetch {
  return async ({ url, service, what, method = "GET", headers, body }) => {
    if (closing.aborted) throw shuttingDown();
    // One controller per call, tied to shutdown only while the call runs.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onClose = () => controller.abort();
    closing.addEventListener("abort", onClose, { once: true });
    try {
      const response = await fetch(url, {
        method,
        headers: { accept: "application/json", "user-agent": "Tessera", ...headers },
        body,
        cache: "no-store",
        redirect: "error",
        signal: controller.signal,
      });
      if (Number(response.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) {
        await response.body?.cancel();
        throw upstreamFailed(`${capitalized(service)} sent an oversized body for ${what}`);
      }
      return {
        status: response.status,
        headers: response.headers,
        text: await response.text(),
        service,
        what,
      };
    } catch (error) {
      if (timedOut) {
        throw upstreamTimeout(
          `${capitalized(service)} did not answer within ${timeoutMs / 1000} s for ${what}`,
        );
      }
      if (closing.aborted) throw shuttingDown();
      if (error instanceof ProblemError) throw error;
      throw upstreamFailed(`Could not reach ${service} for ${what}: ${networkReason(error)}`);
    } finally {
      clearTimeout(timer);
      closing.removeEventListener("abort", onClose);
    }
  };
}

const shuttingDown = () => unavailable("The server is shutting down", 1);

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string } })?.cause;
  return cause?.code ?? (error as Error)?.name ?? "network error";
}
