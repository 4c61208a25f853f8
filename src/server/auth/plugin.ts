import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { SessionUser } from "../../contract/session.js";
import { crossSite } from "../http/errors.js";
import { authorizeRoute, needsUser, type RouteAccess } from "../policies/access.js";
import { type Actor, VISITOR } from "../policies/actor.js";
import type { SessionResolver } from "./sessions.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Who may call the route (policies/access.ts); /api routes default to "user". */
    access?: RouteAccess;
  }
  interface FastifyRequest {
    /** Who is asking, attached once per request before the body is read. */
    actor: Actor;
    /** The signed-in user; set on routes that need one, so their handlers can rely on it. */
    user: SessionUser;
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** The API document and its viewer are for anyone. */
const OPEN_PREFIXES = ["/api/docs", "/api/openapi.json"];

export interface AuthPluginOptions {
  sessions: SessionResolver;
  /** The app's own origin: cookie-borne changes from any other are refused. */
  origin: string;
}

/**
 * Attaches who is asking to every request, once, in one onRequest hook (before the body is read):
 * the session behind the cookie or bearer token (401 without one where the route needs a user),
 * and for state-changing requests that ride on the cookie, a same-origin check (403), so a
 * third-party page cannot act for a signed-in user. Whether the actor may call the route is
 * the policies' call. The API-key path of issue 14 resolves its actor here too, beside sessions.
 */
export const authPlugin = fp<AuthPluginOptions>(
  async (app: FastifyInstance, { sessions, origin }) => {
    app.decorateRequest("actor", null as never);
    app.decorateRequest("user", null as never);

    app.addHook("onRoute", (route) => {
      if (route.config?.access) return;
      const url = route.url ?? route.path;
      const api = url.startsWith("/api/") && !OPEN_PREFIXES.some((prefix) => url.startsWith(prefix));
      route.config = { ...route.config, access: api ? "user" : "public" };
    });

    app.addHook("onRequest", async (request) => {
      request.actor = VISITOR;
      const access = request.routeOptions.config.access ?? "public";
      if (!needsUser(access)) return;
      const headers = request.headers;
      // Only a valid bearer credential stands on its own; anything else falls back to the cookie,
      // and a cookie-borne change is always checked for its origin (a page on another site can
      // add any Authorization header it likes to a request the browser sends with our cookie).
      const bearer = headers.authorization?.startsWith("Bearer ")
        ? { authorization: headers.authorization }
        : null;
      let credentials: { cookie?: string; authorization?: string } = bearer ?? {};
      let resolved = bearer ? await sessions.resolve(bearer) : null;
      if (!resolved && headers.cookie) {
        if (!SAFE_METHODS.has(request.method)) assertSameOrigin(request, origin);
        credentials = { cookie: headers.cookie };
        resolved = await sessions.resolve(credentials);
      }
      if (resolved) {
        request.actor = {
          kind: "user",
          user: resolved.user,
          via: "session",
          session: { id: resolved.sessionId, expiresAt: resolved.expiresAt },
          credentials,
        };
        request.user = resolved.user;
      }
      authorizeRoute(request.actor, access);
    });
  },
  { name: "tessera-auth" },
);

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
