import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isPublicAddress } from "../../../server/upstream/address-guard.js";
import type { CachePolicy, Upstream } from "../../../server/upstream/upstream.js";

/** What a host resolves to changes rarely; a visitor's dots need not ask DNS on every read. */
const PUBLIC_HOSTS: CachePolicy = {
  kind: "bookmark-public-host",
  fresh: 5 * 60_000,
  failuresRemembered: false,
  staleIfError: false,
};

/**
 * Whether the address is one anyone on the internet could check for themselves: every address its
 * host resolves to is globally routable. Whether a NAS at home answers is the owner's to know,
 * even when an admin lets the server reach it; a name that does not resolve is not public either.
 */
export function publicAddress(upstream: Upstream, url: string): Promise<boolean> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (isIP(host)) return Promise.resolve(isPublicAddress(host));
  if (host === "localhost" || host.endsWith(".localhost")) return Promise.resolve(false);
  return upstream.cached(PUBLIC_HOSTS, host, async () => {
    try {
      const addresses = await lookup(host, { all: true });
      return addresses.length > 0 && addresses.every((a) => isPublicAddress(a.address));
    } catch {
      return false;
    }
  });
}
