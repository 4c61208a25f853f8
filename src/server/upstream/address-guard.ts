import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import type * as Undici from "undici";
import { addressNotAllowed } from "../http/errors.js";

/**
 * A URL a user typed (a feed, an icon, a status check, a push endpoint: every URL not pinned
 * from config, see fetch.ts) must not reach the server's own network: the
 * metadata service at 169.254.169.254, the router's admin page, the database on localhost. Only
 * globally routable unicast addresses pass, unless the operator's allow-list names the host or
 * its network (`FETCH_ALLOW_PRIVATE`, e.g. `rss.lan,192.168.1.0/24`), since a self-hoster's
 * feeds often live at home.
 */
export interface AddressGuard {
  /** Throws 400 `address_not_allowed` when the URL's host is an address the guard refuses. */
  checkUrl(url: URL): void;
  /**
   * undici's fetch through an agent that resolves names itself and refuses to connect to a
   * refused address. Redirects are not followed (the caller checks each hop).
   */
  fetch(url: URL, init: GuardedInit): Promise<Awaited<ReturnType<typeof Undici.fetch>>>;
  close(): Promise<void>;
}

export type GuardedInit = Omit<NonNullable<Parameters<typeof Undici.fetch>[1]>, "dispatcher" | "redirect">;

type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

interface AllowList {
  hosts: Set<string>;
  networks: Network[];
}

/** Entries are host names (matched exactly, case-insensitively) or CIDR networks / single IPs. */
export function parseAllowList(entries: readonly string[]): AllowList {
  const hosts = new Set<string>();
  const networks: Network[] = [];
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry.includes("/")) networks.push(ipaddr.parseCIDR(entry));
    else if (ipaddr.isValid(entry)) {
      const address = ipaddr.parse(entry);
      networks.push([address, address.kind() === "ipv4" ? 32 : 128]);
    } else hosts.add(entry);
  }
  return { hosts, networks };
}

/** Whether `ip` is a globally routable unicast address (IPv4-mapped IPv6 judged as its IPv4). */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let address = ipaddr.parse(ip);
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress())
    address = (address as ipaddr.IPv6).toIPv4Address();
  return address.range() === "unicast";
}

function allowedAddress(ip: string, allow: AllowList): boolean {
  if (isPublicAddress(ip)) return true;
  const address = ipaddr.parse(ip);
  return allow.networks.some(
    ([network, bits]) => network.kind() === address.kind() && address.match(network, bits),
  );
}

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, "").toLowerCase();

export function createAddressGuard(allowEntries: readonly string[], connectTimeoutMs: number): AddressGuard {
  const allow = parseAllowList(allowEntries);
  const refused = (host: string) =>
    addressNotAllowed(
      `${host} is a private, loopback or link-local address; the server does not fetch those unless FETCH_ALLOW_PRIVATE names it`,
    );

  // Resolution and the check happen in the connection itself, so a name that resolves to a
  // public address for the check and a private one for the connection (DNS rebinding) gets nowhere.
  const lookup = (
    hostname: string,
    options: { family?: number | string; all?: boolean },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const host = hostname.toLowerCase();
      const usable = allow.hosts.has(host)
        ? addresses
        : addresses.filter((a) => allowedAddress(a.address, allow));
      if (usable.length === 0) return callback(refused(hostname), []);
      if (options.all) return callback(null, usable);
      const first = usable[0]!;
      callback(null, first.address, first.family);
    });
  };

  // undici (a large package) loads with the first user-given URL, not with every start. Its
  // module.exports is taken from `default`: bundled by esbuild, the dynamic import of this CommonJS
  // package has no named exports at all (only `default`), while Node's own loader gives both.
  let opening: Promise<{ fetch: typeof Undici.fetch; agent: Undici.Agent }> | null = null;
  const open = () => {
    opening ??= import("undici").then(({ default: undici }) => ({
      fetch: undici.fetch,
      agent: new undici.Agent({ connect: { lookup, timeout: connectTimeoutMs } }),
    }));
    return opening;
  };
  return {
    async fetch(url, init) {
      const { fetch, agent } = await open();
      return fetch(url, { ...init, redirect: "manual", dispatcher: agent });
    },
    checkUrl(url) {
      const host = bare(url.hostname);
      if (allow.hosts.has(host)) return;
      // An address written in the URL is never looked up, so it is judged here.
      if (isIP(host) && !allowedAddress(host, allow)) throw refused(host);
    },
    close: async () => {
      // Nothing to close when undici never loaded (or failed to: its fetches reported that).
      const opened = await opening?.catch(() => null);
      await opened?.agent.close();
    },
  };
}
