/**
 * A minimal browser over real HTTP: a cookie jar per origin, manual redirects, and a record of
 * every response so the suite can check afterwards that no token ever reached the browser.
 */
export class Browser {
  private readonly jars = new Map<string, Map<string, string>>();
  readonly seen: string[] = [];

  async request(url: string, init: { method?: string; json?: unknown; origin?: string } = {}) {
    const target = new URL(url);
    const jar = this.jars.get(target.origin) ?? new Map<string, string>();
    this.jars.set(target.origin, jar);
    const headers: Record<string, string> = {};
    if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    if (init.json !== undefined) headers["content-type"] = "application/json";
    if (init.origin) headers.origin = init.origin;
    const res = await fetch(target, {
      method: init.method ?? "GET",
      headers,
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
      redirect: "manual",
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (value === "" || /max-age=0/i.test(cookie)) jar.delete(name);
      else jar.set(name, value);
    }
    const text = await res.text();
    this.seen.push(JSON.stringify([...res.headers]), text);
    const location = res.headers.get("location");
    return {
      status: res.status,
      location: location ? new URL(location, target).toString() : null,
      text,
      json: () => JSON.parse(text),
    };
  }

  /** Drops the cookies of one origin (signing out of the provider, say). */
  forget(origin: string) {
    this.jars.delete(origin);
  }

  /** Follows redirects from `url` until one leads to `stopOrigin` outside /api, and returns that URL. */
  async follow(url: string, stopOrigin: string, stopBefore?: (url: URL) => boolean): Promise<string> {
    let next = url;
    for (let hop = 0; hop < 15; hop++) {
      const parsed = new URL(next);
      if (parsed.origin === stopOrigin && !parsed.pathname.startsWith("/api/")) return next;
      if (stopBefore?.(parsed)) return next;
      const res = await this.request(next);
      if (!res.location) throw new Error(`no redirect from ${next}: ${res.status} ${res.text.slice(0, 400)}`);
      next = res.location;
    }
    throw new Error("too many redirects");
  }
}
