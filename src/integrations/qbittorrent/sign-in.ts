import { type ProblemError, upstreamFailed } from "../../server/http/errors.js";
import type { IntegrationCall, IntegrationSession } from "../../server/integrations/kit.js";

/**
 * Sign-ins qBittorrent refused (wrong credentials) or refused to look at (the address is
 * banned). Each wrong password counts towards qBittorrent's ban of the server's address (5 within
 * its window by default, then 403 for an hour, for every Tessera user at once), so the widgets
 * remember these errors and stop signing in (src/widgets/qbittorrent/server/refusals.ts).
 */
const refused = new WeakSet<ProblemError>();

export function isRefusedSignIn(error: unknown): error is ProblemError {
  return typeof error === "object" && error !== null && refused.has(error as ProblemError);
}

function refusal(detail: string): ProblemError {
  const error = upstreamFailed(detail);
  refused.add(error);
  return error;
}

/**
 * The session cookie of a successful sign-in: `SID` up to 5.1, `QBT_SID_<WebUI port>` from 5.2,
 * so it is read by its shape rather than by a fixed name.
 */
export function sessionCookie(setCookies: readonly string[]): string | null {
  const pairs = setCookies.map((line) => line.split(";", 1)[0]!.trim()).filter((p) => p.includes("="));
  const session = pairs.find((p) => /^(SID|QBT_SID_\d+)=/.test(p)) ?? pairs[0];
  return session ?? null;
}

/**
 * Signs in with the WebUI's user name and password (form-encoded, `POST /api/v2/auth/login`).
 * The call carries no Origin or Referer (server-side fetch sends neither), which is what
 * qBittorrent's CSRF check lets through. With an API key (5.2+) there is nothing to sign in to.
 */
export async function signInToQbittorrent(
  call: IntegrationCall,
  secrets: Readonly<Record<string, string>>,
): Promise<IntegrationSession> {
  if (secrets.apiKey) return { headers: {} };
  const response = await call({
    path: "/api/v2/auth/login",
    method: "POST",
    body: new URLSearchParams({ username: secrets.username ?? "", password: secrets.password ?? "" }),
    headers: { accept: "text/plain" },
    what: "a sign-in",
  });
  const text = response.text.trim().slice(0, 200);
  if (response.status === 200 && text === "Ok.") {
    const cookie = sessionCookie(response.headers.getSetCookie());
    // No cookie: qBittorrent lets this address in without signing in (its auth bypass).
    return { headers: cookie ? { cookie } : {} };
  }
  if (response.status === 200 && text === "Fails.")
    throw refusal(
      "qBittorrent refused the user name or password: correct them in the integration. Tessera does not sign in with these again for an hour, so qBittorrent does not ban this server",
    );
  if (response.status === 401)
    throw refusal(
      "qBittorrent refused the sign-in (401): the user name or password is wrong, or its WebUI refuses this address (Options, WebUI: Server domains, host header validation). Tessera does not sign in with these again for an hour",
    );
  if (response.status === 403)
    throw refusal(
      "qBittorrent has banned this server's address after failed sign-ins (403). It lifts the ban after its ban duration (an hour by default) or on a restart; Tessera waits an hour, or tries at once when the integration's credentials change",
    );
  if (response.status === 404)
    throw upstreamFailed("The address answered 404 to a qBittorrent sign-in: is it qBittorrent's WebUI?");
  throw upstreamFailed(`qBittorrent answered ${response.status} to a sign-in`);
}
