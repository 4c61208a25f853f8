import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { API_KEY_PREFIX, type ApiKeyScope } from "../../contract/operators.js";
import type { SessionUser } from "../../contract/session.js";
import { crossSite, ProblemError } from "../http/errors.js";
import { authorizeRoute, needsUser, type RouteAccess } from "../policies/access.js";
import { type Actor, VISITOR } from "../policies/actor.js";
import type { ActorResolver, Credentials } from "./actors.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Who may call the route (policies/access.ts); /api routes default to "user". */
    access?: RouteAccess;
    /** The API-key scope the route needs when not the method's (policies/access.ts). */
    scope?: ApiKeyScope;
  }
  interface FastifyRequest {
    /** Who is asking, attached once per request before the body is read. */
    actor: Actor;
    /** The signed-in user; set on routes that need one, so their handlers can rely on it. */
    user: SessionUser;
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A presented API key that opens nothing. Its own words, not "sign in first": the script that
 * sent it did send credentials, and its owner needs to know to make a new key. Unknown, revoked
 * and expired read the same: an expired key's row is deleted on its first refusal, so only the
 * first answer could tell them apart.
 */
const invalidApiKey = () =>
  new ProblemError(
    401,
    "unauthenticated",
    "This API key is not valid: it may have been revoked or expired; create a new one under Settings → API keys",
    { headers: { "www-authenticate": 'Bearer error="invalid_token"' } },
  );
/** The API document and its viewer are for anyone. */
const OPEN_PREFIXES = ["/api/docs", "/api/openapi.json"];

export interface AuthPluginOptions {
  actors: ActorResolver;
  /** The app's own origin: cookie-borne changes from any other are refused. */
  origin: string;
}

/**
 * Attaches who is asking to every request, once, in one onRequest hook (before the body is read):
 * the API key or session behind the bearer header or cookie (401 without one where the route
 * needs a user), and for state-changing requests that ride on the cookie, a same-origin check
 * (403), so a third-party page cannot act for a signed-in user. Whether the actor may call the
 * route (role, key scopes) is the policies' call.
 */
export const authPlugin = fp<AuthPluginOptions>(
  async (app: FastifyInstance, { actors, origin }) => {
    app.decorateRequest("actor", null as never);
    app.decorateRequest("user", null as never);

    app.addHook("onRoute", (route) => {
      if (!route.config?.access) {
        const url = route.url ?? route.path;
        const api = url.startsWith("/api/") && !OPEN_PREFIXES.some((prefix) => url.startsWith(prefix));
        route.config = { ...route.config, access: api ? "user" : "public" };
      }
      // The OpenAPI document says which routes an API key cannot call.
      const access = route.config.access;
      if ((access === "session" || access === "admin") && route.schema && !route.schema.security)
        route.schema = { ...route.schema, security: [{ session: [] }, { bearer: [] }] };
    });

    app.addHook("onRequest", async (request) => {
      request.actor = VISITOR;
      const access = request.routeOptions.config.access ?? "public";
      if (!needsUser(access)) return;
      const headers = request.headers;
      // Only a valid bearer credential stands on its own; anything else falls back to the cookie,
      // and a cookie-borne change is always checked for its origin (a page on another site can
      // add any Authorization header it likes to a request the browser sends with our cookie).
      const bearer: Credentials | null = headers.authorization?.startsWith("Bearer ")
        ? { authorization: headers.authorization }
        : null;
      let actor = bearer ? await actors.resolve(bearer) : null;
      if (!actor && headers.cookie) {
        if (!SAFE_METHODS.has(request.method)) assertSameOrigin(request, origin);
        actor = await actors.resolve({ cookie: headers.cookie });
      }
      if (actor) {
        request.actor = actor;
        request.user = actor.user;
      } else if (bearer && presentsApiKey(bearer)) {
        throw invalidApiKey();
      }
      authorizeRoute(request.actor, access, {
        method: request.method,
        scope: request.routeOptions.config.scope,
      });
    });
  },
  { name: "tessera-auth" },
);

const presentsApiKey = ({ authorization }: Credentials) =>
  authorization?.slice("Bearer ".length).trim().startsWith(API_KEY_PREFIX) === true;

/** Refuses requests another site's page made the browser send (Origin, else Sec-Fetch-Site). */
export function assertSameOrigin(request: FastifyRequest, allowedOrigin: string) {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== allowedOrigin) {
    throw crossSite(`Requests from ${origin} are not accepted`);
  }
  const fetchSite = request.headers["sec-fetch-site"];
  if (origin === undefined && fetchSite === "cross-site") {
    throw crossSite("Cross-site requests are not accepted");
  }
}
