import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltApp, buildApp } from "../../src/server/app.js";
import { testConfig } from "../support/config.js";

// The web build writes a .br and a .gz beside every text file (vite.config.ts); these stand in for them.
const dist = mkdtempSync(path.join(tmpdir(), "tessera-static-"));
const html = `<!doctype html><html><head><script type="module" src="/assets/app-3f9a1c.js"></script></head><body>${"<p>tessera</p>".repeat(50)}</body></html>`;
const script = `export const answer = ${JSON.stringify("x".repeat(4000))};`;

function writeWithCompressed(file: string, text: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  writeFileSync(`${file}.br`, brotliCompressSync(text));
  writeFileSync(`${file}.gz`, gzipSync(text));
}

describe("static assets", () => {
  let built: BuiltApp;
  beforeAll(async () => {
    writeWithCompressed(path.join(dist, "index.html"), html);
    writeWithCompressed(path.join(dist, "assets/app-3f9a1c.js"), script);
    built = await buildApp(testConfig({ webDist: dist }));
  });
  afterAll(async () => {
    await built.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding: string, accept = "*/*") =>
    built.app.inject({ url, headers: { "accept-encoding": acceptEncoding, accept } });

  it("answers brotli when the browser takes it, gzip otherwise, identity when neither", async () => {
    const br = await get("/assets/app-3f9a1c.js", "gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const gz = await get("/assets/app-3f9a1c.js", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await get("/assets/app-3f9a1c.js", "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(script);
    for (const res of [br, gz, plain]) {
      expect(res.headers["content-type"]).toMatch(/^(application|text)\/javascript/);
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    }
    expect(br.rawPayload.length).toBeLessThan(script.length / 10);
  });

  it("caches hashed assets for a year as immutable and never caches index.html", async () => {
    const asset = await get("/assets/app-3f9a1c.js", "br");
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    for (const url of ["/", "/d/0190d4a0-0000-7000-8000-000000000000"]) {
      const page = await get(url, "br, gzip", "text/html");
      expect(page.statusCode).toBe(200);
      expect(page.headers["cache-control"]).toBe("no-cache");
      expect(page.headers["content-encoding"]).toBe("br");
      expect(brotliDecompressSync(page.rawPayload).toString()).toBe(html);
    }
  });

  it("keeps a missing asset a 404 rather than answering HTML", async () => {
    const res = await get("/assets/missing-000000.js", "br");
    expect(res.statusCode).toBe(404);
  });
});
