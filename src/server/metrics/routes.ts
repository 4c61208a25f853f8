import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { ProblemError } from "../http/errors.js";
import type { Metrics } from "./metrics.js";

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * Times every answered request by route template (an unknown path is "unmatched"), so no label
 * grows with the URLs people send. On the root instance, before the routes, so it sees them all.
 */
export function timeRequests(app: FastifyInstance, metrics: Metrics) {
  app.addHook("onResponse", (request, reply, done) => {
    metrics.requestAnswered(
      request.method,
      request.routeOptions.url ?? "unmatched",
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}

/**
 * `GET /metrics` in Prometheus text, for `Authorization: Bearer <METRICS_TOKEN>` only. Registered
 * only when the token is set (404 otherwise, as any unknown path).
 */
export async function metricsRoutes(
  app: FastifyInstance,
  { metrics, token }: { metrics: Metrics; token: string },
) {
  const expected = digest(token);
  app.get("/metrics", { schema: { hide: true } }, async (request, reply) => {
    const given = request.headers.authorization?.match(/^Bearer (.+)$/)?.[1];
    // Compared as digests: equal lengths, in constant time.
    if (!given || !timingSafeEqual(digest(given), expected)) {
      reply.header("www-authenticate", 'Bearer realm="metrics"');
      throw new ProblemError(
        401,
        "unauthenticated",
        "Send the metrics token: Authorization: Bearer <METRICS_TOKEN>",
      );
    }
    reply.header("content-type", metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
