import { describe, expect, it } from "vitest";
import { blockedAsInsecure, frameSandbox, originLabel } from "./logic";

const own = "https://tessera.example";
const tokens = (url: string) => frameSandbox(url, own).split(/\s+/);

describe("Frame sandbox", () => {
  it("lets a page of another origin keep its own origin, so it can call its API", () => {
    expect(tokens("https://grafana.home.lan/d/x")).toEqual(
      expect.arrayContaining(["allow-scripts", "allow-same-origin"]),
    );
    expect(tokens("http://tessera.example/")).toContain("allow-same-origin");
    expect(tokens("https://tessera.example:8443/")).toContain("allow-same-origin");
  });

  it("never gives a page of our own origin allow-same-origin", () => {
    expect(tokens("https://tessera.example/healthz")).toContain("allow-scripts");
    expect(tokens("https://tessera.example/healthz")).not.toContain("allow-same-origin");
    expect(tokens("not a url")).not.toContain("allow-same-origin");
  });

  it("labels a page by its origin", () => {
    expect(originLabel("https://status.example.com/path?q=1")).toBe("https://status.example.com");
  });
});

describe("mixed content", () => {
  it("is blocked only for a plain http page inside Tessera over https, loopback aside", () => {
    expect(blockedAsInsecure("http://nas.lan:5000/", "https:")).toBe(true);
    expect(blockedAsInsecure("https://nas.lan:5000/", "https:")).toBe(false);
    expect(blockedAsInsecure("http://nas.lan:5000/", "http:")).toBe(false);
    expect(blockedAsInsecure("http://localhost:3000/", "https:")).toBe(false);
    expect(blockedAsInsecure("http://127.0.0.1:3000/", "https:")).toBe(false);
    expect(blockedAsInsecure("not a url", "https:")).toBe(false);
  });
});
