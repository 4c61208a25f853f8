import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";

/** Realtime notifications over Server-Sent Events (DESIGN section 4). */
export async function realtimeRoutes(_app: FastifyInstance, _ctx: AppContext) {}
