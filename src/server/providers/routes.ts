import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";

/** Connected-account data for widgets, under /api/providers (DESIGN sections 3 and 6). */
export async function providerRoutes(_app: FastifyInstance, _ctx: AppContext) {}
