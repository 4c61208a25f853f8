import { createHash } from "node:crypto";
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
 * its network (`FETCH_ALLOW_PRIVATE`, e.g. `rss.lan,192.168.1.0/24`, or the admin page's private
 * networks), since a self-hoster's feeds often live at home.
 */
export interface AddressGuard {
  /** Throws 400 `address_not_allowed` when the URL's host is an address the guard refuses. */
  checkUrl(url: URL, reach?: Reach): void;
  /**
   * Resolves the URL's host now and throws 400 `address_not_allowed` when none of its addresses
   * may be reached: for saving a service's address, so a refusal is said at once rather than at
   * its first use (each connection checks again all the same).
   */
  checkResolved(url: URL, reach?: Reach): Promise<void>;
  /**
   * undici's fetch through an agent that resolves names itself and refuses to connect to a
   * refused address. Redirects are not followed (the caller checks each hop).
   */
  fetch(url: URL, init: GuardedInit, reach?: Reach): Promise<Awaited<ReturnType<typeof Undici.fetch>>>;
  close(): Promise<void>;
}

/**
 * How far one saved service may be reached (an integration, DESIGN section 16): an admin may allow
 * its private address, and a self-signed service brings its CA certificate, or (admins only) asks
 * for no verification at all.
 */
export interface Reach {
  allowPrivate: boolean;
  caCertificate: string | null;
  skipTlsVerify: boolean;
  /**
   * Every connection goes to this Unix socket (Docker's), whatever the URL's host: no network
   * address is involved, so there is nothing for the guard to judge. Admins only (service.ts).
   */
  socketPath?: string | null;
  /** A TLS client certificate and its key (PEM), for services that authenticate clients so (Docker). */
  clientCertificate?: { cert: string; key: string } | null;
}

/** Agents kept for distinct reaches (each holds its connections); the least recently used goes. */
const REACH_AGENTS_MAX = 32;

export type GuardedInit = Omit<NonNullable<Parameters<typeof Undici.fetch>[1]>, "dispatcher" | "redirect">;

type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

export interface AllowList {
  hosts: Set<string>;
  networks: Network[];
}

/**
 * Why an allow-list entry would not work, or null when it is a host name, an IP address or a CIDR
 * network (entries are trimmed and lower-cased first, as parseAllowList reads them).
 */
export function allowEntryProblem(raw: string): string | null {
  const entry = raw.trim().toLowerCase();
  if (!entry) return "must not be empty";
  // Only the usual spellings of addresses: ipaddr.js also reads "10" or "0x7f.1" as IPv4, which
  // nobody means in an allow list.
  const address = (text: string) => ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);
  if (entry.includes("/"))
    return address(entry.slice(0, entry.indexOf("/"))) && ipaddr.isValidCIDR(entry)
      ? null
      : "is not a network in CIDR notation (like 192.168.1.0/24)";
  if (address(entry)) return null;
  // A host name: letters, digits and hyphens in dot-separated labels of at most 63.
  const labels = entry.replace(/\.$/, "").split(".");
  const hostName = labels.every((label) => /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/.test(label));
  // A last label of digits only is no top-level name: "10.0.1" or "0x7f.1" is a mistyped address.
  return hostName && !/^\d+$/.test(labels.at(-1)!)
    ? null
    : "is not a host name, an IP address or a CIDR network";
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

/**
 * `allowed`: the entries, or the list as it stands now (the admin page changes it while the server
 * runs, instance settings), read at each check and each connection.
 */
export function createAddressGuard(
  allowed: readonly string[] | (() => AllowList),
  connectTimeoutMs: number,
): AddressGuard {
  const fixed = typeof allowed === "function" ? null : parseAllowList(allowed);
  const current = typeof allowed === "function" ? allowed : () => fixed!;
  const refused = (host: string) =>
    addressNotAllowed(
      `${host} is a private, loopback or link-local address; the server does not fetch those unless an admin allows it (Administration, private networks, or FETCH_ALLOW_PRIVATE)`,
    );

  // Resolution and the check happen in the connection itself, so a name that resolves to a
  // public address for the check and a private one for the connection (DNS rebinding) gets nowhere.
  const usableAddresses = (hostname: string, addresses: LookupAddress[], allowPrivate: boolean) => {
    const host = hostname.toLowerCase();
    const allow = current();
    return allowPrivate || allow.hosts.has(host)
      ? addresses
      : addresses.filter((a) => allowedAddress(a.address, allow));
  };
  const lookupFor =
    (allowPrivate: boolean) =>
    (
      hostname: string,
      options: { family?: number | string; all?: boolean },
      callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
    ) => {
      dnsLookup(hostname, { all: true }, (error, addresses) => {
        if (error) return callback(error, []);
        const usable = usableAddresses(hostname, addresses, allowPrivate);
        if (usable.length === 0) return callback(refused(hostname), []);
        if (options.all) return callback(null, usable);
        const first = usable[0]!;
        callback(null, first.address, first.family);
      });
    };

  // undici (a large package) loads with the first user-given URL, not with every start. Its
  // module.exports is taken from `default`: bundled by esbuild, the dynamic import of this CommonJS
  // package has no named exports at all (only `default`), while Node's own loader gives both.
  let opening: Promise<{
    fetch: typeof Undici.fetch;
    agent: Undici.Agent;
    Agent: typeof Undici.Agent;
  }> | null = null;
  const open = () => {
    opening ??= import("undici").then(({ default: undici }) => ({
      fetch: undici.fetch,
      agent: new undici.Agent({ connect: { lookup: lookupFor(false), timeout: connectTimeoutMs } }),
      Agent: undici.Agent,
    }));
    return opening;
  };
  // One agent per distinct reach, so a CA or an allowed private address applies to its service only.
  const reachAgents = new Map<string, Undici.Agent>();
  const agentFor = (Agent: typeof Undici.Agent, reach: Reach) => {
    // Hashed: the key holds a client's private key, which need not sit in memory twice.
    const key = createHash("sha256")
      .update(
        JSON.stringify([
          reach.allowPrivate,
          reach.skipTlsVerify,
          reach.caCertificate,
          reach.socketPath ?? null,
          reach.clientCertificate ?? null,
        ]),
      )
      .digest("base64");
    const known = reachAgents.get(key);
    if (known) {
      reachAgents.delete(key);
      reachAgents.set(key, known);
      return known;
    }
    const agent = new Agent({
      connect: {
        lookup: lookupFor(reach.allowPrivate),
        timeout: connectTimeoutMs,
        ...(reach.caCertificate ? { ca: reach.caCertificate } : {}),
        ...(reach.skipTlsVerify ? { rejectUnauthorized: false } : {}),
        ...(reach.socketPath ? { socketPath: reach.socketPath } : {}),
        ...(reach.clientCertificate ?? {}),
      },
    });
    reachAgents.set(key, agent);
    if (reachAgents.size > REACH_AGENTS_MAX) {
      const [oldestKey, oldest] = reachAgents.entries().next().value!;
      reachAgents.delete(oldestKey);
      void oldest.close().catch(() => {});
    }
    return agent;
  };
  return {
    async fetch(url, init, reach) {
      const { fetch, agent, Agent } = await open();
      const dispatcher = reach ? agentFor(Agent, reach) : agent;
      return fetch(url, { ...init, redirect: "manual", dispatcher });
    },
    checkUrl(url, reach) {
      if (reach?.socketPath) return;
      const host = bare(url.hostname);
      const allow = current();
      if (reach?.allowPrivate || allow.hosts.has(host)) return;
      // An address written in the URL is never looked up, so it is judged here.
      if (isIP(host) && !allowedAddress(host, allow)) throw refused(host);
    },
    async checkResolved(url, reach) {
      if (reach?.socketPath) return;
      this.checkUrl(url, reach);
      const host = bare(url.hostname);
      if (isIP(host)) return;
      const addresses = await new Promise<LookupAddress[]>((resolve) =>
        // A name that does not resolve now is not refused: the service may be down; its calls say so.
        dnsLookup(host, { all: true }, (error, found) => resolve(error ? [] : found)),
      );
      if (addresses.length > 0 && usableAddresses(host, addresses, reach?.allowPrivate ?? false).length === 0)
        throw refused(host);
    },
    close: async () => {
      // Nothing to close when undici never loaded (or failed to: its fetches reported that).
      const opened = await opening?.catch(() => null);
      await Promise.all([opened?.agent.close(), ...[...reachAgents.values()].map((a) => a.close())]);
    },
  };
}
