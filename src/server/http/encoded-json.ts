import { gzipSync } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";

/** A JSON answer serialized once, and gzipped once on first demand, however often it is sent. */
export interface EncodedJson {
  json: string;
  gzip: Buffer | null;
}

export const encodedJson = (json: string): EncodedJson => ({ json, gzip: null });

/** Sends already serialized JSON past the response serializer, gzipped for clients that take it. */
export function sendEncodedJson(request: FastifyRequest, reply: FastifyReply, body: EncodedJson) {
  reply.type("application/json").header("vary", "accept-encoding");
  if (acceptsGzip(request.headers["accept-encoding"])) {
    body.gzip ??= gzipSync(body.json);
    return reply.header("content-encoding", "gzip").send(body.gzip);
  }
  return reply.send(body.json);
}

/** Sends JSON the database (or a cache) already built, as is, past the response serializer. */
export function sendJsonText(reply: FastifyReply, json: string | Buffer) {
  return reply.type("application/json; charset=utf-8").serializer(String).send(json);
}

/** Whether the client takes gzip (every browser does); `gzip;q=0` is a refusal. */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(",") : (header ?? "");
  return value.split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    return coding === "gzip" && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
  });
}
