import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";

/** Keyless weather forecast and geocoding (DESIGN section 6). */
export async function weatherRoutes(_app: FastifyInstance, _ctx: AppContext) {}
