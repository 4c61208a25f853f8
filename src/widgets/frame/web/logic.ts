/** What every framed page may do: run scripts, send forms, open windows, go full screen. */
const BASE = "allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-presentation";

/**
 * The sandbox of a framed page. A page from another origin keeps its own origin
 * (allow-same-origin), so the embedded app can call its own API and keep its session; the
 * browser's same-origin policy still keeps it out of ours. A page from our own origin never
 * gets it: scripts together with allow-same-origin there could reach Tessera and remove their
 * own sandbox. An unreadable URL is treated as ours, the strict case.
 */
export function frameSandbox(url: string, ownOrigin: string): string {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return BASE;
  }
  return origin === ownOrigin || origin === "null" ? BASE : `${BASE} allow-same-origin`;
}

/** "https://status.example.com" for the label a visitor sees before loading a framed page. */
export function originLabel(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * Whether the browser will block the page as mixed content: a plain http page inside Tessera
 * served over https. Loopback counts as secure to browsers, so it is shown.
 */
export function blockedAsInsecure(url: string, ownProtocol: string): boolean {
  if (ownProtocol !== "https:") return false;
  try {
    const { protocol, hostname } = new URL(url);
    if (protocol !== "http:") return false;
    const loopback =
      hostname === "localhost" ||
      hostname.endsWith(".localhost") ||
      /^127\./.test(hostname) ||
      hostname === "[::1]";
    return !loopback;
  } catch {
    return false;
  }
}
