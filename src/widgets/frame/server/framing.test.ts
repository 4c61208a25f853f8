import { describe, expect, it, vi } from "vitest";
import { ProblemError, upstreamFailed } from "../../../server/http/errors.js";
import type { UpstreamRequest } from "../../../server/upstream/fetch.js";
import type { Upstream } from "../../../server/upstream/upstream.js";
import { createFramingCheck, framingOf } from "./framing.js";

const TESSERA = "https://dash.example.org";
const PAGE = "https://status.example.com/board";

const judge = (headers: Record<string, string>, page = PAGE, embedder = TESSERA) =>
  framingOf(new Headers(headers), page, embedder);

describe("whether a page's headers let Tessera frame it", () => {
  it("allows a page that says nothing about framing", () => {
    expect(judge({})).toEqual({ framing: "allowed" });
    expect(judge({ "content-security-policy": "default-src 'self'; img-src *" })).toEqual({
      framing: "allowed",
    });
  });

  it("reads X-Frame-Options as browsers do", () => {
    const refused = { framing: "refused", reason: "x-frame-options" };
    expect(judge({ "x-frame-options": "DENY" })).toEqual(refused);
    expect(judge({ "x-frame-options": "sameorigin" })).toEqual(refused);
    // Conflicting values refuse; ALLOW-FROM and nonsense are ignored.
    expect(judge({ "x-frame-options": "SAMEORIGIN, DENY" })).toEqual(refused);
    expect(judge({ "x-frame-options": "ALLOW-FROM https://dash.example.org" })).toEqual({
      framing: "allowed",
    });
    expect(judge({ "x-frame-options": "ALLOWALL" })).toEqual({ framing: "allowed" });
    // The same origin may frame itself.
    expect(judge({ "x-frame-options": "SAMEORIGIN" }, `${TESSERA}/healthz`)).toEqual({ framing: "allowed" });
  });

  it("reads CSP frame-ancestors, which overrides X-Frame-Options", () => {
    const refused = { framing: "refused", reason: "frame-ancestors" };
    const csp = (policy: string, more: Record<string, string> = {}) =>
      judge({ "content-security-policy": policy, ...more });
    expect(csp("frame-ancestors 'none'")).toEqual(refused);
    expect(csp("default-src 'self'; frame-ancestors 'self'")).toEqual(refused);
    expect(csp("frame-ancestors https://other.example")).toEqual(refused);
    expect(csp("frame-ancestors *", { "x-frame-options": "DENY" })).toEqual({ framing: "allowed" });
    expect(csp("frame-ancestors https://dash.example.org")).toEqual({ framing: "allowed" });
    expect(csp("frame-ancestors 'self' *.example.org")).toEqual({ framing: "allowed" });
    expect(csp("frame-ancestors https:")).toEqual({ framing: "allowed" });
    expect(csp("frame-ancestors http://dash.example.org")).toEqual({ framing: "allowed" });
    expect(csp("frame-ancestors https://dash.example.org:8443")).toEqual(refused);
    expect(csp("frame-ancestors https://dash.example.org:*")).toEqual({ framing: "allowed" });
    // Every enforced policy must admit it (two headers arrive joined by a comma).
    expect(csp("frame-ancestors *, frame-ancestors 'none'")).toEqual(refused);
    // A report-only policy enforces nothing.
    expect(judge({ "content-security-policy-report-only": "frame-ancestors 'none'" })).toEqual({
      framing: "allowed",
    });
  });

  it("matches 'self' on the page's own origin only", () => {
    const csp = { "content-security-policy": "frame-ancestors 'self'" };
    expect(judge(csp, `${TESSERA}/other`)).toEqual({ framing: "allowed" });
    expect(judge(csp, "http://dash.example.org/other")).toEqual({ framing: "allowed" });
    expect(judge(csp, "https://dash.example.org:8443/")).toEqual({
      framing: "refused",
      reason: "frame-ancestors",
    });
  });
});

describe("the framing check through the upstream layer", () => {
  function fakeUpstream(answer: (request: UpstreamRequest) => Promise<{ status: number; headers: Headers }>) {
    const cache = new Map<string, unknown>();
    const fetch = vi.fn(answer);
    const upstream = {
      fetch,
      cached: async (_policy: unknown, key: string, load: () => Promise<unknown>) => {
        if (!cache.has(key)) cache.set(key, await load());
        return cache.get(key);
      },
    } as unknown as Upstream;
    return { upstream, fetch };
  }

  it("asks the page once, without reading its body, and answers for the address", async () => {
    const { upstream, fetch } = fakeUpstream(async () => ({
      status: 200,
      headers: new Headers({ "x-frame-options": "DENY" }),
    }));
    const check = createFramingCheck(upstream, TESSERA);
    expect(await check(PAGE)).toEqual({ url: PAGE, framing: "refused", reason: "x-frame-options" });
    expect(await check(PAGE)).toEqual({ url: PAGE, framing: "refused", reason: "x-frame-options" });
    expect(fetch).toHaveBeenCalledOnce();
    expect(fetch.mock.calls[0]?.[0]).toMatchObject({ url: PAGE, discardBody: true });
    // A guarded request: never pinned to the operator's own services.
    expect(fetch.mock.calls[0]?.[0].pinned).toBeUndefined();
  });

  it("claims nothing from an error page or an address it may not ask", async () => {
    const login = fakeUpstream(async () => ({
      status: 401,
      headers: new Headers({ "x-frame-options": "DENY" }),
    }));
    expect(await createFramingCheck(login.upstream, TESSERA)(PAGE)).toEqual({
      url: PAGE,
      framing: "unknown",
    });
    const lan = fakeUpstream(async () => {
      throw new ProblemError(400, "address_not_allowed", "private");
    });
    expect(await createFramingCheck(lan.upstream, TESSERA)("http://nas.lan/")).toEqual({
      url: "http://nas.lan/",
      framing: "unknown",
    });
  });

  it("says when the server could not reach the page, and lets a busy server be asked again", async () => {
    const down = fakeUpstream(async () => {
      throw upstreamFailed("Could not reach status.example.com: ECONNREFUSED");
    });
    expect(await createFramingCheck(down.upstream, TESSERA)(PAGE)).toEqual({
      url: PAGE,
      framing: "unreachable",
    });
    const busy = fakeUpstream(async () => {
      throw new ProblemError(503, "service_unavailable", "queue full");
    });
    await expect(createFramingCheck(busy.upstream, TESSERA)(PAGE)).rejects.toThrow("queue full");
  });
});
