import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet, { type HelmetOptions } from "helmet";

export interface SecurityHeadersOptions {
  baseUrl: string;
  /** CSP `frame-ancestors` sources of the public dashboard pages (`/p/<id>`), e.g. `'none'`. */
  publicFrameAncestors: string;
}

/** Public dashboard pages of the SPA: the only pages other sites may be allowed to frame. */
const PUBLIC_PAGE = /^\/p\/[^/?#]+\/?(\?|$)/;

/**
 * The Content-Security-Policy of the single-page app, from what it loads (src/web):
 * - scripts and styles: our own bundle only; no inline script anywhere. Inline styles are allowed
 *   because the mail reader's sandboxed `srcdoc` frame inherits this policy, and mail is HTML
 *   with style attributes and one <style> of ours (the frame has its own stricter policy too).
 * - images: ours, `data:` (the icon), https (bookmark favicons, mail images) and http (a
 *   dashboard's background image, DESIGN section 13, may live on a plain-http server in the
 *   LAN). Under https `upgrade-insecure-requests` asks for them over https. Like every request
 *   of the page they carry no Referer (`Referrer-Policy: no-referrer`), which matters because a
 *   CSS background has no `referrerpolicy` attribute of its own.
 * - connections: our API and its SSE stream only; every upstream is fetched by the server.
 * - frames: http and https pages (the Frame widget shows user-given pages in a sandbox).
 * - workers: our own /sw.js only (the service worker: Web Push, the app shell, offline copies).
 */
function directives(https: boolean, frameAncestors: string[]) {
  return {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "script-src-attr": ["'none'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "https:", "http:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "frame-src": ["http:", "https:"],
    "worker-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": frameAncestors,
    // Behind plain http (a local install) upgrading would break every request of the page.
    ...(https ? { "upgrade-insecure-requests": [] } : {}),
  };
}

function serialize(policy: Record<string, string[]>): string {
  return Object.entries(policy)
    .map(([name, values]) => [name, ...values].join(" "))
    .join("; ");
}

/**
 * The headers helmet sets for these options. Helmet recomputes them on every request (it allows
 * per-request nonces, which we do not use); under load that was 9% of the server's main thread
 * (parsing the CSP directives each time), so they are computed once, by helmet itself, at start.
 */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown = null;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (error?: unknown) => {
    failure = error ?? null;
  });
  if (failure) throw failure;
  return headers;
}

declare module "fastify" {
  interface FastifyInstance {
    /**
     * The app's security headers, for answers sent before any hook runs (a malformed URL, a
     * request Node refuses before Fastify sees it: src/server/http/server-options.ts).
     */
    securityHeaders: Readonly<Record<string, string>>;
  }
}

/**
 * Browser defences on every answer (helmet): the CSP above with `frame-ancestors 'none'` (and
 * `X-Frame-Options: DENY`), so no other site can frame the app; public dashboard pages take their
 * `frame-ancestors` from PUBLIC_FRAME_ANCESTORS instead. `nosniff`, `Referrer-Policy:
 * no-referrer`, same-origin opener and resource policies, and HSTS only when BASE_URL is https.
 * Answers that never reach the hook read the app's set from `app.securityHeaders`.
 */
export function securityHeaders(app: FastifyInstance, options: SecurityHeadersOptions) {
  const https = new URL(options.baseUrl).protocol === "https:";
  const appHeaders = helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: directives(https, ["'none'"]) },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    referrerPolicy: { policy: "no-referrer" },
    xFrameOptions: { action: "deny" },
    crossOriginResourcePolicy: { policy: "same-origin" },
    crossOriginOpenerPolicy: { policy: "same-origin" },
  });
  const { "x-frame-options": _, ...publicHeaders } = appHeaders;
  publicHeaders["content-security-policy"] = serialize(
    directives(https, options.publicFrameAncestors.split(/\s+/)),
  );
  app.decorate("securityHeaders", Object.freeze(appHeaders));
  app.addHook("onRequest", (request, reply, done) => {
    const isPublicPage = request.method === "GET" && PUBLIC_PAGE.test(request.url);
    reply.headers(isPublicPage ? publicHeaders : appHeaders);
    done();
  });
}

/**
 * Swagger UI brings its own CSP (hashes of its inline scripts). Three changes: no framing, inline
 * styles (Swagger UI injects some from script, which its policy would refuse), and no upgrading
 * of requests behind plain http.
 */
export function swaggerCsp(baseUrl: string) {
  const https = new URL(baseUrl).protocol === "https:";
  return (header: string) => {
    let policy = header.replace("frame-ancestors 'self'", "frame-ancestors 'none'");
    policy = policy.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");
    if (!https) policy = policy.replace(/\s*upgrade-insecure-requests;?/, "");
    return policy;
  };
}
