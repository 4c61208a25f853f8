import { isAbsolute } from "node:path";
import type { IntegrationKindDefinition } from "../../integrations/kit.js";
import { badRequest } from "../http/errors.js";

/**
 * A saved address: http or https, or for kinds that say `unixSocket` (Docker) a Unix socket as
 * `unix:///var/run/docker.sock`. `webcal:` is how calendar apps spell an https feed.
 */
export function normalizeUrl(raw: string, path = "/url", kind?: IntegrationKindDefinition): URL {
  let url: URL;
  const socket = kind?.unixSocket === true;
  const expected = socket ? "an http, https or unix:// address" : "an http or https address";
  try {
    url = new URL(raw.trim().replace(/^webcals?:/i, "https:"));
  } catch {
    throw badRequest("url is not an address", [{ path, message: `must be ${expected}` }]);
  }
  if (url.protocol === "unix:" && socket) return socketUrl(url, path);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw badRequest("url is not an http address", [
      {
        path,
        message: socket
          ? "must start with http://, https:// or unix:// (a socket path)"
          : "must start with http:// or https://",
      },
    ]);
  if (url.username || url.password)
    throw badRequest("url carries credentials", [
      { path, message: "must not hold a user or password: save them as secrets" },
    ]);
  url.hash = "";
  return url;
}

function socketUrl(url: URL, path: string): URL {
  const socketPath = decodeURIComponent(url.pathname);
  if (url.host !== "" || !isAbsolute(socketPath) || url.search || url.hash || socketPath.includes("\0"))
    throw badRequest("url is not a socket path", [
      { path, message: "must be unix:// and an absolute path, e.g. unix:///var/run/docker.sock" },
    ]);
  return url;
}

/** The socket a saved `unix:` address names; null for a network address. */
export function socketPathOf(url: string | URL): string | null {
  const parsed = typeof url === "string" ? new URL(url) : url;
  return parsed.protocol === "unix:" ? decodeURIComponent(parsed.pathname) : null;
}

/**
 * The integration's address with `path` and `query` added; the origin never changes, so a
 * secret goes nowhere but the service it was saved for. A socket's calls are addressed to
 * `localhost` (the Host the Docker daemon expects); the connection goes to the socket.
 */
export function addressOf(base: string, path?: string, query?: Record<string, string>): URL {
  const url = socketPathOf(base) === null ? new URL(base) : new URL("http://localhost/");
  if (path) {
    const [pathname = "", search] = path.split("?", 2) as [string, string | undefined];
    const joined = `${url.pathname.replace(/\/+$/, "")}/${pathname.replace(/^\/+/, "")}`;
    url.pathname = joined;
    if (search) for (const [key, value] of new URLSearchParams(search)) url.searchParams.append(key, value);
  }
  for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value);
  return url;
}
