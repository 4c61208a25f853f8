import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ProblemError } from "../../src/server/http/errors.js";
import {
  type AllowList,
  allowEntryProblem,
  createAddressGuard,
  isPublicAddress,
  parseAllowList,
} from "../../src/server/upstream/address-guard.js";
import { createUpstream } from "../../src/server/upstream/upstream.js";
import { FakeServer } from "../fakes/oauth-http.js";
import { upstreamConfig } from "../support/config.js";

describe("address guard", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.178.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.251",
    "255.255.255.255",
    "::1",
    "::",
    "fe80::1",
    "fd00::1",
    "::ffff:10.0.0.1",
    "not an address",
  ])("refuses %s", (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("allows %s", (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it("opens exactly the networks and hosts the operator lists", async () => {
    const guard = createAddressGuard(["192.168.1.0/24", "10.0.0.7", "rss.lan"], 1000);
    try {
      expect(() => guard.checkUrl(new URL("http://192.168.1.20/feed"))).not.toThrow();
      expect(() => guard.checkUrl(new URL("http://10.0.0.7/feed"))).not.toThrow();
      expect(() => guard.checkUrl(new URL("http://rss.lan/feed"))).not.toThrow();
      expect(() => guard.checkUrl(new URL("http://192.168.2.20/feed"))).toThrow(/FETCH_ALLOW_PRIVATE/);
      expect(() => guard.checkUrl(new URL("http://10.0.0.8/feed"))).toThrow(/private/);
    } finally {
      await guard.close();
    }
  });

  it("takes only the entries it can read: host names, usual addresses and CIDR networks", () => {
    for (const entry of [
      "nas.lan",
      " NAS.lan ",
      "localhost",
      "jellyfin.home.arpa.",
      "10.0.0.7",
      "fd00::1",
      "192.168.1.0/24",
      "fd00::/8",
    ])
      expect(allowEntryProblem(entry), entry).toBeNull();
    for (const entry of [
      "",
      "  ",
      "bad host",
      "-x.lan",
      "a..b",
      "10",
      "10.1",
      "0x7f.1",
      "192.168.1.0/33",
      "nas.lan/24",
      "[::1]",
      "http://nas.lan",
    ])
      expect(allowEntryProblem(entry), entry).not.toBeNull();
  });

  it("reads a changing list at every check (the admin page's private networks)", async () => {
    let allow: AllowList = parseAllowList([]);
    const guard = createAddressGuard(() => allow, 1000);
    try {
      expect(() => guard.checkUrl(new URL("http://10.0.0.7/feed"))).toThrow(/private/);
      allow = parseAllowList(["10.0.0.0/8"]);
      expect(() => guard.checkUrl(new URL("http://10.0.0.7/feed"))).not.toThrow();
      allow = parseAllowList([]);
      expect(() => guard.checkUrl(new URL("http://10.0.0.7/feed"))).toThrow(/private/);
    } finally {
      await guard.close();
    }
  });

  it("reaches a Unix socket only for a reach that names it, whatever the URL's host", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tessera-socket-"));
    const socketPath = path.join(dir, "daemon.sock");
    const daemon = createServer((request, response) =>
      response.end(`${request.headers.host} ${request.url}`),
    );
    await new Promise<void>((resolve) => daemon.listen(socketPath, resolve));
    const guard = createAddressGuard([], 1000);
    const reach = { allowPrivate: false, caCertificate: null, skipTlsVerify: false, socketPath };
    try {
      const url = new URL("http://localhost/v1.43/containers/json");
      // Without the socket, localhost is refused as any loopback address is.
      await expect(guard.checkResolved(url)).rejects.toThrow(/private, loopback/);
      await expect(guard.checkResolved(url, reach)).resolves.toBeUndefined();
      const answer = await guard.fetch(url, {}, reach);
      expect(await answer.text()).toBe("localhost /v1.43/containers/json");
      const missing = { ...reach, socketPath: path.join(dir, "absent.sock") };
      const failed = await guard.fetch(url, {}, missing).catch((error: Error) => error);
      expect((failed as { cause?: { code?: string } }).cause?.code).toBe("ENOENT");
    } finally {
      await guard.close();
      await new Promise((resolve) => daemon.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("guards every outside call unless its URL is pinned by config, with no opt-in", async () => {
    const site = await FakeServer.start(() => ({ status: 200, text: "hello" }));
    const upstream = createUpstream(upstreamConfig({ allowPrivate: [] }));
    try {
      const url = `${site.url}/anything`;
      const refused = await upstream.fetch({ url, service: "a site", what: "a page" }).catch((e) => e);
      expect(refused).toBeInstanceOf(ProblemError);
      expect(refused.code).toBe("address_not_allowed");
      expect(site.requests).toHaveLength(0);
      const pinned = await upstream.fetch({ url, service: "the exchange", what: "a page", pinned: true });
      expect(pinned.status).toBe(200);
      expect(site.requests).toHaveLength(1);
    } finally {
      upstream.close();
      await site.close();
    }
  });
});
