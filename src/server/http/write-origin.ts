import type { FastifyRequest } from "fastify";
import { CLIENT_ID_HEADER } from "../../contract/sharing.js";
import type { WriteOrigin } from "../db/changes.js";

/** A tab's id is its own choice: anything else (too long, odd characters) is ignored, not echoed. */
const CLIENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Who makes this request's writes, and from which tab (DESIGN section 14). */
export function writeOrigin(request: FastifyRequest): WriteOrigin {
  const actor = request.actor;
  const header = request.headers[CLIENT_ID_HEADER];
  const clientId = typeof header === "string" && CLIENT_ID.test(header) ? header : null;
  return {
    by: actor.kind === "user" ? { id: actor.user.id, name: actor.user.name } : null,
    clientId,
  };
}
