import { ProblemError } from "../../../server/http/errors.js";
import type { CachePolicy, Upstream } from "../../../server/upstream/upstream.js";
import type { FrameCheck, FramingReason } from "../contract.js";

/** Longer than a page worth framing takes to send its headers; a slower one is not judged. */
export const FRAMING_TIMEOUT_MS = 5_000;

/**
 * A page's framing rule changes with its site's deployment, not by the minute; one check serves
 * every reader and visitor of every widget showing that address for this long. What a check found
 * is a value (failures included), so an address a person typed is never asked more often.
 */
export const FRAMING_CHECKS: CachePolicy = {
  kind: "frame-framing",
  fresh: 5 * 60_000,
  failuresRemembered: true,
  staleIfError: false,
};

type Verdict = { framing: "allowed" | "refused"; reason?: FramingReason };

const ALLOWED: Verdict = { framing: "allowed" };

function origin(url: string): URL | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed : null;
  } catch {
    return null;
  }
}

const defaultPort = (scheme: string) => (scheme === "https:" ? "443" : scheme === "http:" ? "80" : "");
const portOf = (url: URL) => url.port || defaultPort(url.protocol);

/** http: also matches https: (the upgrade CSP allows), never the other way round. */
const schemeMatches = (source: string, target: string) =>
  source === target || (source === "http:" && target === "https:");

const isDefaultPort = (url: URL) => portOf(url) === defaultPort(url.protocol);

/**
 * Whether one CSP source expression admits `embedder` as an ancestor of the page at `page`
 * (CSP 3, "Does url match expression in origin"), for the expressions that make sense in
 * frame-ancestors. Paths are not compared: an ancestor is matched by its origin.
 */
function sourceMatches(expression: string, embedder: URL, page: URL): boolean {
  const source = expression.toLowerCase();
  if (source === "*") return true;
  if (source === "'self'")
    return (
      embedder.origin === page.origin ||
      (embedder.hostname === page.hostname &&
        page.protocol === "http:" &&
        embedder.protocol === "https:" &&
        isDefaultPort(page) &&
        isDefaultPort(embedder))
    );
  if (source.startsWith("'")) return false;
  if (/^[a-z][a-z0-9+.-]*:$/.test(source)) return schemeMatches(source, embedder.protocol);
  const parts = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*|(?:\*\.)?[^/:]+)(?::(\*|\d+))?(?:\/.*)?$/.exec(source);
  if (!parts) return false;
  const [, scheme, host = "", port] = parts;
  if (!schemeMatches(scheme ? `${scheme}:` : page.protocol, embedder.protocol)) return false;
  const name = embedder.hostname;
  if (host.startsWith("*.") ? !name.endsWith(host.slice(1)) : host !== "*" && host !== name) return false;
  if (port === "*") return true;
  return port ? portOf(embedder) === port : isDefaultPort(embedder);
}

/**
 * The frame-ancestors directives of the enforced policies (each comma-joined header is a policy
 * of its own; a report-only one enforces nothing). Only a policy's first such directive counts.
 */
function frameAncestors(csp: string | null): string[][] {
  if (!csp) return [];
  const lists: string[][] = [];
  for (const policy of csp.split(",")) {
    for (const directive of policy.split(";")) {
      const [name, ...sources] = directive.trim().split(/\s+/);
      if (name?.toLowerCase() === "frame-ancestors") {
        lists.push(sources.filter(Boolean));
        break;
      }
    }
  }
  return lists;
}

/**
 * Whether a browser would show the page inside Tessera at `embedder`, from the headers it was
 * sent with: CSP frame-ancestors where present (browsers then ignore X-Frame-Options), else
 * X-Frame-Options as the HTML standard reads it. Anything these rules do not forbid is allowed:
 * "refused" is said only when the headers leave no doubt.
 */
export function framingOf(headers: Headers, pageUrl: string, embedderOrigin: string): Verdict {
  const page = origin(pageUrl);
  const embedder = origin(embedderOrigin);
  if (!page || !embedder) return ALLOWED;
  const ancestors = frameAncestors(headers.get("content-security-policy"));
  if (ancestors.length > 0) {
    const admitted = ancestors.every((list) => list.some((source) => sourceMatches(source, embedder, page)));
    return admitted ? ALLOWED : { framing: "refused", reason: "frame-ancestors" };
  }
  const xfo = headers.get("x-frame-options");
  if (!xfo) return ALLOWED;
  const values = new Set(
    xfo
      .split(",")
      .map((v) => v.trim().toLowerCase())
      .filter(Boolean),
  );
  const known = ["deny", "allowall", "sameorigin"];
  const refused: Verdict = { framing: "refused", reason: "x-frame-options" };
  if (values.size > 1 && [...values].some((v) => known.includes(v))) return refused;
  if (values.has("allowall")) return ALLOWED;
  if (values.has("deny")) return refused;
  if (values.has("sameorigin")) return page.origin === embedder.origin ? ALLOWED : refused;
  // ALLOW-FROM and other values are ignored by today's browsers.
  return ALLOWED;
}

/**
 * Asks the page itself, as a browser would load it into the frame: a GET whose body is never read,
 * through the upstream layer as an address a person typed (the address guard, every redirect
 * checked). Only a successful answer is judged; a login page or an error page may carry rules
 * the real page does not. The server may be unable to reach what the browser can (a private
 * address not allowed here, another network): then nothing is claimed.
 */
export function createFramingCheck(upstream: Upstream, embedderOrigin: string) {
  const check = async (url: string): Promise<FrameCheck> => {
    try {
      const response = await upstream.fetch({
        url,
        service: new URL(url).host,
        what: "the framed page",
        headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" },
        discardBody: true,
        timeoutMs: FRAMING_TIMEOUT_MS,
      });
      if (response.status < 200 || response.status > 299) return { url, framing: "unknown" };
      return { url, ...framingOf(response.headers, url, embedderOrigin) };
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      if (error.code === "upstream_failed" || error.code === "upstream_timeout")
        return { url, framing: "unreachable" };
      // Busy or closing: asked again next time, never kept as an answer.
      if (error.code === "service_unavailable") throw error;
      // Not allowed to ask (a private address not listed): nothing to say.
      return { url, framing: "unknown" };
    }
  };
  return (url: string) => upstream.cached(FRAMING_CHECKS, url, () => check(url));
}
