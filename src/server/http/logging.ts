import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from "fastify";
import type { Logger } from "pino";

/** Anything that could carry a secret is removed before a line is written. */
const REDACTED_PATHS = [
  "req.headers.cookie",
  "req.headers.authorization",
  'res.headers["set-cookie"]',
  "*.password",
  "*.accessToken",
  "*.refreshToken",
  "*.idToken",
  "*.token",
  "*.secret",
  "*.clientSecret",
];

/** Query strings of auth and OAuth callbacks carry codes and states; logs keep only the path there. */
function safeUrl(url: string): string {
  return url.startsWith("/api/auth/") ? (url.split("?")[0] ?? url) : url;
}

export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions["logger"] {
  const options = {
    level,
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    serializers: {
      req: (req: { method: string; url: string; id: string; ip?: string }) => ({
        id: req.id,
        method: req.method,
        url: safeUrl(req.url),
        ip: req.ip,
      }),
    },
  };
  return (stream ? { ...options, stream } : options) as FastifyServerOptions["logger"];
}

/** An answer slower than this is logged at info whatever its status. */
const SLOW_REQUEST_MS = 1000;

/**
 * One line per answered request, instead of Fastify's two (received, completed): at info when it
 * failed (4xx, 5xx) or was slow, at debug otherwise, so `LOG_LEVEL=debug` shows every request.
 * Fastify's two lines at the default level halved the throughput of a small read (bench:lean,
 * issue 36: 0.18x bare Fastify embedded against 0.33x without them); a household's log is for what
 * went wrong. Fastify's other lines (errors, unknown routes) stay as they are.
 */
export class AnsweredRequestLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) return super.requestCompleted(error, request, reply);
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    const level = status >= 400 || ms >= SLOW_REQUEST_MS ? "info" : "debug";
    // Fastify's logger is pino's; the check spares building the line when the level is off.
    if ((reply.log as unknown as Logger).isLevelEnabled(level))
      reply.log[level]({ req: request, res: reply, responseTime: ms }, "request completed");
  }
}
