import { ProblemError } from "../http/errors.js";

/** How long any upstream (provider API, token endpoint, weather) may take before we answer 504. */
export const UPSTREAM_TIMEOUT_MS = 8000;

export interface UpstreamRequest {
  /** Human name of the upstream for error details ("Google", "Open-Meteo"). */
  service: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string | URLSearchParams;
  timeoutMs?: number;
}

export interface UpstreamResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or null when the body was empty or not JSON. */
  body: unknown;
}

export const upstreamFailed = (service: string, detail: string) =>
  new ProblemError(502, "upstream_failed", `${service}: ${detail}`);

/**
 * One upstream call with a hard deadline covering headers and body. Network failures become
 * 502 and the deadline 504; any HTTP status is handed back for the caller to judge, since
 * what a 401 or 404 means depends on the endpoint.
 */
export async function fetchUpstream(url: string, request: UpstreamRequest): Promise<UpstreamResponse> {
  const signal = AbortSignal.timeout(request.timeoutMs ?? UPSTREAM_TIMEOUT_MS);
  try {
    const res = await fetch(url, {
      method: request.method ?? "GET",
      headers: { accept: "application/json", ...request.headers },
      body: request.body,
      signal,
      redirect: "error",
      cache: "no-store",
    });
    const text = await res.text();
    let body: unknown = null;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
    }
    return { status: res.status, headers: res.headers, body };
  } catch (error) {
    if (signal.aborted) {
      throw new ProblemError(504, "upstream_timeout", `${request.service} did not answer in time`);
    }
    throw upstreamFailed(request.service, `unreachable (${(error as Error).name})`);
  }
}

/** The common judgement for data calls: 2xx is data, 404 is the caller's unknown id, the rest is 502. */
export function expectOk(res: UpstreamResponse, service: string, what = "item"): unknown {
  if (res.status >= 200 && res.status < 300) return res.body;
  if (res.status === 404) throw new ProblemError(404, "not_found", `${service} has no such ${what}`);
  throw upstreamFailed(service, `answered ${res.status}`);
}
