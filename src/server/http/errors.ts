import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ErrorCode, Problem } from "../../contract/errors.js";
import { PROVIDER_LABELS, type Provider } from "../../contract/providers.js";

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  431: "Request Header Fields Too Large",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** An error that is the client's (or an upstream's) and is answered as RFC 9457 problem details. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extra: {
      errors?: Problem["errors"];
      current?: unknown;
      retryAfterSeconds?: number;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(detail);
    this.name = "ProblemError";
  }
}

// Every problem the API answers is made here, so a code is spelled, and a status chosen, once.

export const badRequest = (detail: string, errors?: Problem["errors"]) =>
  new ProblemError(400, "validation_failed", detail, { errors });
export const invalidJson = (detail: string) => new ProblemError(400, "invalid_json", detail);
export const unauthenticated = () =>
  new ProblemError(401, "unauthenticated", "Sign in first: no valid session was sent");
export const forbidden = (detail: string) => new ProblemError(403, "forbidden", detail);
export const crossSite = (detail: string) => new ProblemError(403, "cross_site_request", detail);
export const notFound = (what: string) => new ProblemError(404, "not_found", `${what} not found`);
/** A 404 whose detail says more than "X not found" (an upstream that has no such item). */
export const notFoundBecause = (detail: string) => new ProblemError(404, "not_found", detail);
export const notConnected = (provider: Provider) =>
  new ProblemError(
    404,
    "account_not_connected",
    `No ${PROVIDER_LABELS[provider]} account (${provider}) is connected`,
  );
export const providerNotConfigured = (provider: Provider) =>
  new ProblemError(
    404,
    "provider_not_configured",
    `${PROVIDER_LABELS[provider]} (${provider}) is not configured on this server`,
  );
export const methodNotAllowed = (method: string, url: string, allowed: string[]) =>
  new ProblemError(405, "method_not_allowed", `${method} is not served on ${url}`, {
    headers: { allow: allowed.join(", ") },
  });
export const payloadTooLarge = (detail: string) => new ProblemError(413, "payload_too_large", detail);
export const unsupportedMediaType = (detail: string) =>
  new ProblemError(415, "unsupported_media_type", detail);
export const rateLimited = (detail: string, retryAfterMs: number) =>
  new ProblemError(429, "rate_limited", detail, { retryAfterSeconds: retryAfterMs / 1000 });
/** A write that named an older revision than the stored one: nothing was written. */
export const conflict = (what: string, current: unknown) =>
  new ProblemError(409, "conflict", `${what} changed since that revision; nothing was written`, { current });
/** A count a user may not pass (dashboards, widgets on one dashboard): nothing was created. */
export const limitReached = (detail: string) => new ProblemError(409, "limit_reached", detail);
/** The user's stored configs would pass their byte quota: nothing was written. */
export const quotaExceeded = (detail: string) => new ProblemError(413, "quota_exceeded", detail);
export const tooManyStreams = (detail: string) =>
  new ProblemError(429, "too_many_streams", detail, { retryAfterSeconds: 30 });
/** A document of a newer format version than this build reads. */
export const unsupportedVersion = (detail: string) => new ProblemError(400, "unsupported_version", detail);
/** A user-given URL that points into the server's own network (src/server/upstream/address-guard.ts). */
export const insufficientScope = (detail: string) => new ProblemError(403, "insufficient_scope", detail);
export const lastAdmin = (detail: string) => new ProblemError(409, "last_admin", detail);
/** An instance setting its environment variable sets: it wins, so the admin page cannot change it. */
export const setByEnvironment = (detail: string, errors: Problem["errors"]) =>
  new ProblemError(409, "set_by_environment", detail, { errors });
/** A write to what a provisioning file keeps (DESIGN section 17): it changes in the file only. */
export const provisioned = (detail: string) => new ProblemError(409, "provisioned", detail);
export const addressNotAllowed = (detail: string) => new ProblemError(400, "address_not_allowed", detail);
export const upstreamFailed = (detail: string) => new ProblemError(502, "upstream_failed", detail);
/** 502, not 401: a 401 would read as our own session ending, while only the provider link is dead. */
export const reconnectRequired = (provider: Provider, why: string) =>
  new ProblemError(
    502,
    "reconnect_required",
    `Reconnect your ${PROVIDER_LABELS[provider]} account (${provider}): ${why}`,
  );
export const unavailable = (detail: string, retryAfterSeconds: number) =>
  new ProblemError(503, "service_unavailable", detail, { retryAfterSeconds });
/** A request that arrives after the drain: the client retries elsewhere, on a new connection. */
export const shuttingDown = () =>
  new ProblemError(503, "service_unavailable", "The server is shutting down; retry", {
    retryAfterSeconds: 1,
    headers: { connection: "close" },
  });
export const upstreamTimeout = (detail: string) => new ProblemError(504, "upstream_timeout", detail);

export function problemBody(
  status: number,
  code: Problem["code"],
  detail: string,
  extra: Partial<Problem> = {},
) {
  return {
    type: `https://tessera.dev/problems/${code.replaceAll("_", "-")}`,
    title: TITLES[status] ?? "Error",
    status,
    detail,
    code,
    ...extra,
  } satisfies Problem;
}

export function sendProblem(reply: FastifyReply, error: ProblemError) {
  if (error.extra.retryAfterSeconds !== undefined) {
    reply.header("retry-after", String(Math.max(1, Math.ceil(error.extra.retryAfterSeconds))));
  }
  for (const [name, value] of Object.entries(error.extra.headers ?? {})) reply.header(name, value);
  return reply
    .code(error.status)
    .type("application/problem+json")
    .send(
      problemBody(error.status, error.code, error.detail, {
        ...(error.extra.errors ? { errors: error.extra.errors } : {}),
        ...(error.extra.current === undefined ? {} : { current: error.extra.current }),
      }),
    );
}

/** Fastify's own client errors, translated so every 4xx carries a problem body with a stable code. */
function fromFastifyError(error: FastifyError): ProblemError | null {
  if (error.validation) {
    const errors = validationErrors(error.validation);
    const where = error.validationContext ?? "request";
    return badRequest(
      `The ${where} is invalid: ${errors.map((e) => `${e.path} ${e.message}`).join("; ")}`,
      errors,
    );
  }
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return unsupportedMediaType("Send the body as application/json");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return payloadTooLarge("The body is larger than 1 MiB");
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return invalidJson("The body is empty but Content-Type is application/json");
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return invalidJson("The body is not valid JSON");
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return invalidJson("Content-Length does not match the body");
  }
  if (error instanceof SyntaxError || error.message?.includes("prototype property")) {
    return invalidJson(`The body is not acceptable JSON: ${error.message}`);
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    const status = error.statusCode;
    const code: ErrorCode =
      status === 429 ? "rate_limited" : status === 404 ? "not_found" : "validation_failed";
    return new ProblemError(status, code, error.message);
  }
  return null;
}

type ValidationIssue = NonNullable<FastifyError["validation"]>[number];

/**
 * One line per problem: a value outside a union of constants makes Ajv report each branch's
 * `const` failure and then the `anyOf` itself, so those collapse into one "must be one of"
 * naming each allowed value once; any other repeat of the same path and message is dropped.
 */
export function validationErrors(issues: readonly ValidationIssue[]): { path: string; message: string }[] {
  const unions = issues.filter((v) => v.keyword === "anyOf");
  const branchesOf = (union: ValidationIssue) =>
    issues.filter((v) => v !== union && v.schemaPath.startsWith(`${union.schemaPath}/`));
  const out: { path: string; message: string }[] = [];
  for (const v of issues) {
    if (unions.some((u) => u !== v && v.schemaPath.startsWith(`${u.schemaPath}/`))) continue;
    let message = v.message ?? "is invalid";
    if (v.keyword === "anyOf") {
      const branches = branchesOf(v);
      if (branches.length > 0 && branches.every((b) => b.keyword === "const"))
        message = `must be one of: ${[...new Set(branches.map((b) => JSON.stringify(b.params.allowedValue)))].join(", ")}`;
    }
    const path =
      (v.instancePath || "/") +
      (v.params && "missingProperty" in v.params ? `/${v.params.missingProperty}` : "");
    if (!out.some((e) => e.path === path && e.message === message)) out.push({ path, message });
  }
  return out;
}

export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const problem = error instanceof ProblemError ? error : fromFastifyError(error);
    if (problem) {
      if (problem.status >= 500)
        request.log.warn({ code: problem.code, detail: problem.detail }, "upstream problem");
      return sendProblem(reply, problem);
    }
    if (isUnavailable(error)) {
      request.log.error({ err: error }, "dependency unavailable");
      return sendProblem(reply, unavailable("A backing service is unavailable; try again shortly", 5));
    }
    // A bug: the client gets only the request id, the log gets everything.
    request.log.error({ err: error }, "unhandled error");
    return reply
      .code(500)
      .type("application/problem+json")
      .send(
        problemBody(500, "internal_error", "Something went wrong on our side", {
          requestId: String(request.id),
        }),
      );
  });

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split("?")[0] ?? "/";
    const allowed = METHODS.filter((method) => app.hasRoute({ method, url }));
    if (allowed.length > 0) return sendProblem(reply, methodNotAllowed(request.method, url, allowed));
    return sendProblem(reply, notFoundBecause(`No route for ${request.method} ${url}`));
  });
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Network errors of a driver that could not reach its server. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENOTFOUND",
]);

/**
 * True when an error means a backing service (PostgreSQL, Redis) cannot serve right now, as
 * opposed to a bug: connection failures, PostgreSQL's connection-exception (08) and
 * operator-intervention (57P) classes, too many connections, a database refusing connections.
 * Drizzle wraps driver errors, so the cause chain is searched too.
 */
function isUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown };
    const code = typeof e.code === "string" ? e.code : "";
    const message = typeof e.message === "string" ? e.message : "";
    if (NETWORK_CODES.has(code) || code.startsWith("08") || code.startsWith("57P") || code === "53300")
      return true;
    if (code === "55000" && /not currently accepting connections/.test(message)) return true;
    if (
      /Connection is closed|Connection terminated|MaxRetriesPerRequest|timeout exceeded when trying to connect|enableOfflineQueue|Command timed out/i.test(
        message,
      )
    )
      return true;
    current = e.cause;
  }
  return false;
}

/**
 * The ownership policy in one line: queries are scoped to the signed-in user, so a record of
 * another user and a record that does not exist both come back empty, and both answer 404.
 */
export function found<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw notFound(what);
  return value;
}
