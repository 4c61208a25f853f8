import type { ApiKeyScope } from "../../contract/operators.js";
import { forbidden, insufficientScope, unauthenticated } from "../http/errors.js";
import type { Actor, UserActor } from "./actor.js";

/**
 * Who may call a route, declared on the route as `config: { access }`. Every /api route needs a
 * user unless it says otherwise (see auth/plugin.ts), so a forgotten declaration fails closed.
 * - `public`: anyone.
 * - `user`: a signed-in user, through a session or an API key with the route's scope.
 * - `session`: a signed-in user through a session only: API keys never manage keys, sessions or
 *   linked accounts (DESIGN section 9).
 * - `admin`: an admin, through a session only.
 */
export type RouteAccess = "public" | "user" | "session" | "admin";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

export function needsUser(access: RouteAccess): boolean {
  return access !== "public";
}

/**
 * The scope an API key needs for a route: a route may name it (`config: { scope }`), else reads
 * need `read` and every other method `write`.
 */
export function requiredScope(method: string, declared: ApiKeyScope | undefined): ApiKeyScope {
  return declared ?? (READS.has(method) ? "read" : "write");
}

/** `write` covers everything; `read` and `notifications:write` only themselves. */
export function scopeAllows(scopes: readonly ApiKeyScope[], needed: ApiKeyScope): boolean {
  return scopes.includes(needed) || scopes.includes("write");
}

const missingScope = (needed: ApiKeyScope) =>
  insufficientScope(`This API key lacks the "${needed}" scope this request needs`);
const sessionOnly = () => insufficientScope("API keys cannot do this; sign in to the web app instead");
const adminOnly = () => forbidden("Only an administrator can do this");

/** Throws the problem the actor gets for calling a route it may not; returns the actor when it may. */
export function authorizeRoute(
  actor: Actor,
  access: RouteAccess,
  request: { method: string; scope?: ApiKeyScope },
): Actor {
  if (access === "public") return actor;
  if (actor.kind !== "user") throw unauthenticated();
  if (actor.via === "key") {
    if (access !== "user") throw sessionOnly();
    const needed = requiredScope(request.method, request.scope);
    if (!scopeAllows(actor.key.scopes, needed)) throw missingScope(needed);
  }
  if (access === "admin" && actor.role !== "admin") throw adminOnly();
  return actor satisfies UserActor;
}
