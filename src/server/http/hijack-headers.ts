import type { OutgoingHttpHeaders } from "node:http";
import type { FastifyReply } from "fastify";

/**
 * The headers set on a reply so far (the security headers, the request id…), for a hijacked
 * reply that writes its own head: Fastify would have written them, and now nobody else will.
 * Values go as Node takes them, so a header set several times stays several header lines.
 */
export function headersSetSoFar(reply: FastifyReply): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}
