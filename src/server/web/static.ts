import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** Paths that belong to the server, never to the client router. */
const SERVER_PATHS = /^\/(api(\/|$)|healthz$|readyz$)/;

/**
 * Serves the built single-page app, precompressed (brotli or gzip by negotiation): hashed assets
 * cached for a year as immutable, index.html never cached, and
 * any other GET that asks for HTML answered with index.html, so client routes survive a reload
 * without the server having to know them.
 */
export async function webRoutes(app: FastifyInstance, { dist }: { dist: string | null }) {
  if (!dist || !existsSync(path.join(dist, "index.html"))) return;
  await app.register(fastifyStatic, {
    root: dist,
    wildcard: false,
    index: false,
    dotfiles: "deny",
    // The build writes .br and .gz beside each text file; the browser's Accept-Encoding picks one.
    preCompressed: true,
    setHeaders(reply, filePath) {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header("cache-control", hashed ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });

  const sendIndex = (reply: FastifyReply) =>
    reply.header("cache-control", "no-cache").type("text/html; charset=utf-8").sendFile("index.html");

  app.get("/", { schema: { hide: true } }, (_request, reply) => sendIndex(reply));
  app.get("/*", { schema: { hide: true } }, (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split("?")[0] ?? "/";
    // A missing asset must stay a 404: answering HTML to a script request breaks the page silently.
    if (SERVER_PATHS.test(pathname) || pathname.startsWith("/assets/") || !acceptsHtml(request)) {
      return reply.callNotFound();
    }
    return sendIndex(reply);
  });
}

function acceptsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return typeof accept === "string" && /text\/html|application\/xhtml\+xml/.test(accept);
}
