import type { FastifyServerOptions } from "fastify";

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
