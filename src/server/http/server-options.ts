import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { HttpConfig } from "../config.js";
import { badRequest, problemBody, sendProblem } from "./errors.js";

/**
 * The network edge: how long a client may take to send a request, how long an idle connection
 * is kept, how many connections one instance holds, and problem+json for the errors Fastify and
 * Node answer before any route runs. Long-lived answers (the SSE stream) lift the idle timeout
 * for their own socket; `requestTimeout` only covers receiving the request, never the answer.
 */
export function edgeServerOptions(http: HttpConfig) {
  return {
    connectionTimeout: http.idleTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    requestTimeout: http.requestTimeoutMs,
    http: {
      requestTimeout: http.requestTimeoutMs,
      headersTimeout: http.requestTimeoutMs,
      // Node checks the two timeouts above on this period (30 s by default): short enough that a
      // request is cut close to its deadline.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(http.requestTimeoutMs / 4))),
    },
    // Our own phase hook answers 503 problem+json during shutdown (http/lifecycle.ts).
    return503OnClosing: false,
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      // Answered before routing, so no hook adds the request id or the security headers.
      reply.headers(request.server.securityHeaders ?? {});
      reply.header("x-request-id", request.id);
      if (error.code === "FST_ERR_BAD_URL" || error.code === "FST_ERR_MAX_PARAM_LENGTH") {
        return sendProblem(
          reply,
          badRequest("The URL is not valid: a path segment is malformed or too long", [
            { path: "/url", message: "must be valid percent-encoding of at most 100 characters a segment" },
          ]),
        );
      }
      return sendProblem(reply, badRequest(error.message));
    },
    clientErrorHandler: answerClientError,
  };
}

/** Applies what Fastify has no option for; call once the server exists (after buildApp). */
export function applyConnectionLimit(app: FastifyInstance, http: HttpConfig) {
  app.server.maxConnections = http.maxConnections;
}

/**
 * Errors Node raises on a connection before Fastify sees a request (a timed-out or malformed
 * request, headers too large): answered as problem+json with the app's security headers, then
 * the connection is closed.
 */
function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const status =
    error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
  const detail =
    status === 408
      ? "The request did not arrive in time"
      : status === 431
        ? "The request headers are too large"
        : "The request is not valid HTTP";
  this.log.debug({ code: error.code }, "client error on a connection");
  if (
    socket.writable &&
    !(socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent
  ) {
    const body = JSON.stringify(
      problemBody(status, status === 408 ? "request_timeout" : "validation_failed", detail),
    );
    const security = Object.entries(this.securityHeaders ?? {})
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\n` +
        `${security}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
