import { type TSchema, Type } from "@sinclair/typebox";
import { upstreamFailed } from "../../server/http/errors.js";
import { answeredJson, defineIntegrationServer } from "../../server/integrations/kit.js";
import { credentialsRefused } from "../../server/integrations/refused.js";
import type { UpstreamResponse } from "../../server/upstream/fetch.js";
import { defineSource, maybeJson } from "../../server/upstream/source.js";

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** `POST /api/auth` and `GET /api/auth`: the session, its id null when Pi-hole has no password. */
const AuthAnswer = defineSource(
  Type.Object({
    session: Type.Object({
      valid: Type.Boolean(),
      sid: Nullable(Type.String()),
      message: Type.Optional(Nullable(Type.String())),
    }),
  }),
);

const Local = Type.Optional(
  Type.Object({ local: Type.Optional(Type.Object({ version: Nullable(Type.String()) })) }),
);
const VersionAnswer = defineSource(Type.Object({ version: Type.Object({ core: Local, ftl: Local }) }));

/** Pi-hole's error body: `{"error":{"key","message","hint"},"took"}`. */
export function piholeError(response: UpstreamResponse): { key: string; message: string } | null {
  const json = maybeJson(response.text) as { error?: { key?: unknown; message?: unknown } } | undefined;
  const error = json?.error;
  if (!error || typeof error.key !== "string") return null;
  return { key: error.key, message: typeof error.message === "string" ? error.message : error.key };
}

/** Why a sign-in failed, in words that say what to change; refusals are marked as such. */
function signInFailure(response: UpstreamResponse, passwordSaved: boolean) {
  const { status } = response;
  const error = piholeError(response);
  if (status === 401)
    return credentialsRefused(
      upstreamFailed(
        passwordSaved
          ? "Pi-hole refused the password (401): save an app password from Pi-hole (Settings, Web interface / API) in the integration"
          : "Pi-hole wants a password (401): save an app password from Pi-hole (Settings, Web interface / API) in the integration",
      ),
    );
  if (status === 400 && error?.message.includes("2FA"))
    return credentialsRefused(
      upstreamFailed(
        "Pi-hole asks for a two-factor code: save an app password instead (Settings, Web interface / API), which needs none",
      ),
    );
  if (status === 429 && error?.key === "api_seats_exceeded")
    return upstreamFailed(
      "Pi-hole has no free API session (429 api_seats_exceeded): others are signed in; raise webserver.api.max_sessions or wait for their sessions to end",
    );
  if (status === 429)
    return upstreamFailed("Pi-hole is slowing down sign-ins (429): Tessera tries again in a while");
  if (status === 404)
    return upstreamFailed(
      "Pi-hole answered 404 for /api/auth: this is not Pi-hole v6's API (Pi-hole v5 is not supported; save Pi-hole's address without /admin)",
    );
  return null;
}

/**
 * Pi-hole v6 signs in once (`POST /api/auth` with the password) and answers a session id that
 * every later call sends as `X-FTL-SID`. Sessions are few (webserver.api.max_sessions, 16 by
 * default, 429 past that) and signing in per call would fill them and lock the owner out of
 * Pi-hole's own web interface, so the service keeps one session per integration.
 */
export default defineIntegrationServer({
  headers: () => ({}),
  async signIn(call, { password }) {
    const response = await call({
      path: "/api/auth",
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      // Pi-hole without a password answers any password with a valid session that has no id.
      body: JSON.stringify({ password: password ?? "" }),
      what: "a sign-in",
    });
    const failure = signInFailure(response, Boolean(password));
    if (failure) throw failure;
    const { session } = AuthAnswer.parse(answeredJson(response, "Pi-hole"), response);
    if (!session.valid)
      throw credentialsRefused(upstreamFailed("Pi-hole did not accept the sign-in: check the app password"));
    // No expiry: Pi-hole's timeout (30 min) counts from the last call, so a session in use never
    // lapses, and one that did is answered 401, which signs in again. Signing in ahead of time
    // would leave the old session holding a seat until it timed out.
    const headers: Record<string, string> = session.sid ? { "x-ftl-sid": session.sid } : {};
    return { headers };
  },
  async signOut(call) {
    await call({ path: "/api/auth", method: "DELETE", what: "a sign-out" });
  },
  async test(call) {
    const response = await call({ path: "/api/info/version", what: "its version" });
    if (response.status === 404)
      throw upstreamFailed(
        "Pi-hole answered 404 for /api/info/version: this is not Pi-hole v6's API (save Pi-hole's address without /admin)",
      );
    const { version } = VersionAnswer.parse(answeredJson(response, "Pi-hole"), response);
    const core = version.core?.local?.version;
    const ftl = version.ftl?.local?.version;
    return `Pi-hole ${core ?? "v6"}${ftl ? ` (FTL ${ftl})` : ""}`;
  },
});
