import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/**
 * Serves the built single-page app: hashed assets cached for a year, index.html never cached, and
 * every non-API GET answered with index.html so client-side routes survive a reload.
 */
export async function webRoutes(app: FastifyInstance, { dist }: { dist: string | null }) {
  if (!dist || !existsSync(path.join(dist, "index.html"))) return;
  await app.register(fastifyStatic, {
    root: dist,
    wildcard: false,
    index: false,
    setHeaders(reply, filePath) {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header("cache-control", hashed ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });
  const sendIndex = (_req: unknown, reply: import("fastify").FastifyReply) =>
    reply.header("cache-control", "no-cache").sendFile("index.html");
  app.get("/", { schema: { hide: true } }, sendIndex);
  app.get("/assets/*", { schema: { hide: true } }, (req, reply) =>
    reply.sendFile((req.params as { "*": string })["*"], path.join(dist, "assets")),
  );
  for (const route of ["/signin", "/signup", "/d/*", "/p/*", "/settings", "/onboarding"]) {
    app.get(route, { schema: { hide: true } }, sendIndex);
  }
}
