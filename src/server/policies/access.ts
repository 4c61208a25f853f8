import { unauthenticated } from "../http/errors.js";
import type { Actor, UserActor } from "./actor.js";

/**
 * Who may call a route, declared on the route as `config: { access }`. Every /api route needs a
 * user unless it says otherwise (see auth/plugin.ts), so a forgotten declaration fails closed.
 * Issue 14 adds `admin` and API-key scopes here: a route then names the scope it needs, and
 * `authorizeRoute` alone decides, from the actor's role and key scopes, whether it may.
 */
export type RouteAccess = "public" | "user";

export function needsUser(access: RouteAccess): boolean {
  return access !== "public";
}

/** Throws the problem the actor gets for calling a route it may not; returns the actor when it may. */
export function authorizeRoute(actor: Actor, access: RouteAccess): Actor {
  if (access === "public") return actor;
  if (actor.kind !== "user") throw unauthenticated();
  return actor satisfies UserActor;
}
