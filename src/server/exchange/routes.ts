import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";

/** Exchange market data for crypto widgets (DESIGN section 5). */
export async function exchangeRoutes(_app: FastifyInstance, _ctx: AppContext) {}
