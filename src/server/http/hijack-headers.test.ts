import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { headersSetSoFar } from "./hijack-headers.js";

describe("headersSetSoFar", () => {
  it("hands a hijacked reply every header set before, a repeated one as separate lines", async () => {
    const app = Fastify();
    app.get("/stream", (_request, reply) => {
      reply.header("x-frame-options", "DENY").header("x-several", ["one", "two"]).header("x-count", 3);
      const headers = headersSetSoFar(reply);
      reply.hijack();
      reply.raw.writeHead(200, { ...headers, "content-type": "text/event-stream" });
      reply.raw.end("data: hi\n\n");
    });
    const res = await app.inject({ method: "GET", url: "/stream" });
    await app.close();
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["x-several"]).toEqual(["one", "two"]);
    expect(res.headers["x-count"]).toBe("3");
    expect(res.body).toBe("data: hi\n\n");
  });
});
