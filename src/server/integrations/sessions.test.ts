import { describe, expect, it } from "vitest";
import { upstreamFailed } from "../http/errors.js";
import type { UpstreamRequest, UpstreamResponse } from "../upstream/fetch.js";
import type { IntegrationKindServer } from "./kit.js";
import { IntegrationService } from "./service.js";
import type { UsableIntegration } from "./types.js";

/**
 * How calls of a kind that signs in first (qBittorrent, Pi-hole v6) are made: the service below
 * is the real one; only its HTTP layer is a small in-memory service that hands out numbered
 * sessions, forgets them when told to, and refuses calls without a live one.
 */
function harness() {
  const time = { now: 0 };
  const service = { issued: 0, live: new Set<string>(), signIns: 0, calls: [] as UpstreamRequest[] };
  const answer = (status: number, text = ""): UpstreamResponse => ({
    status,
    text,
    headers: new Headers(),
    bytes: Buffer.from(text),
    service: "Torrents",
    what: "a call",
  });
  const fetch = async (request: UpstreamRequest): Promise<UpstreamResponse> => {
    service.calls.push(request);
    const url = new URL(request.url);
    if (url.pathname === "/login") {
      service.signIns++;
      if (request.headers?.["x-password"] !== "right") return answer(403, "Fails.");
      const sid = `s${++service.issued}`;
      service.live.add(sid);
      return answer(200, sid);
    }
    return service.live.has(request.headers?.cookie ?? "") ? answer(200, "data") : answer(403);
  };
  const kind: IntegrationKindServer = {
    headers: ({ password }): Record<string, string> => (password ? { "x-password": password } : {}),
    async signIn(call) {
      const response = await call({ path: "/login", what: "a sign-in" });
      if (response.status !== 200) throw upstreamFailed("the credentials were refused");
      return { headers: { cookie: response.text }, expiresInMs: 60_000 };
    },
    test: async () => "ok",
  };
  const integrations = new IntegrationService({
    db: undefined as never,
    audit: undefined as never,
    cipher: undefined as never,
    checkAddress: async () => {},
    fetch,
    servers: async () => new Map([["session", kind]]),
    clock: () => time.now,
  });
  const saved = (secrets: Record<string, string> = { password: "right" }, id = "i-1"): UsableIntegration => ({
    id,
    kind: "session",
    name: "Torrents",
    url: "http://nas.lan:8080",
    ownerId: null,
    allowPrivate: true,
    skipTlsVerify: false,
    allowActions: false,
    caCertificate: null,
    secrets,
  });
  const get = (integration: UsableIntegration) =>
    integrations.call(integration, { path: "/api/data", what: "the data" });
  return { time, service, saved, get };
}

describe("integration sign-in sessions", () => {
  it("signs in once for many calls, concurrent or not, and sends the session's headers", async () => {
    const { service, saved, get } = harness();
    const integration = saved();
    const answers = await Promise.all(Array.from({ length: 5 }, () => get(integration)));
    await get(integration);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(service.signIns).toBe(1);
    const dataCalls = service.calls.filter((c) => c.url.endsWith("/api/data"));
    expect(dataCalls.every((c) => c.headers?.cookie === "s1" && c.headers?.["x-password"] === "right")).toBe(
      true,
    );
  });

  it("signs in again once and retries when the service forgot the session", async () => {
    const { service, saved, get } = harness();
    const integration = saved();
    await get(integration);
    service.live.clear();
    const answer = await get(integration);
    expect(answer.status).toBe(200);
    expect(service.signIns).toBe(2);
    expect(service.calls.at(-1)?.headers?.cookie).toBe("s2");
  });

  it("signs in afresh when the session expires, and for changed secrets", async () => {
    const { time, service, saved, get } = harness();
    await get(saved());
    time.now += 50_000;
    await get(saved());
    expect(service.signIns).toBe(1);
    // 90% of the minute the service gave: renewed before it lapses mid-call.
    time.now += 5_000;
    await get(saved());
    expect(service.signIns).toBe(2);
    await get(saved({ password: "right", extra: "x" }));
    expect(service.signIns).toBe(3);
  });

  it("keeps no refused sign-in, and a connection test (unsaved) signs in every time", async () => {
    const { service, saved, get } = harness();
    const wrong = saved({ password: "wrong" });
    await expect(get(wrong)).rejects.toThrow(/credentials were refused/);
    await expect(get(wrong)).rejects.toThrow(/credentials were refused/);
    expect(service.signIns).toBe(2);
    const unsaved = saved(undefined, "");
    await get(unsaved);
    await get(unsaved);
    expect(service.signIns).toBe(4);
  });

  it("answers a refusal that survives the new session as it came, without a loop", async () => {
    const { service, saved, get } = harness();
    const integration = saved();
    await get(integration);
    // Every session is refused from now on (the account lost its rights).
    service.live.add = () => service.live;
    service.live.clear();
    const answer = await get(integration);
    expect(answer.status).toBe(403);
    expect(service.signIns).toBe(2);
  });
});
