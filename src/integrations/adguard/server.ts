import { Type } from "@sinclair/typebox";
import { upstreamFailed } from "../../server/http/errors.js";
import { answeredJson, defineIntegrationServer } from "../../server/integrations/kit.js";
import { credentialsRefused } from "../../server/integrations/refused.js";
import { defineSource } from "../../server/upstream/source.js";

const StatusAnswer = defineSource(
  Type.Object({ version: Type.String(), running: Type.Boolean(), protection_enabled: Type.Boolean() }),
);

/** A 401 from AdGuard Home: wrong user or password, or its block after five of them. */
export const adguardRefused = (name: string) =>
  credentialsRefused(
    upstreamFailed(
      `AdGuard Home refused the user name or password of ${name} (401): save a user of its web interface in the integration. After 5 wrong ones it blocks this server's address for 15 minutes, so Tessera stops asking with these`,
    ),
  );

/**
 * AdGuard Home has no API tokens: a user of its web interface signs every call with HTTP Basic.
 * Without users configured it needs nothing, so no header is sent without a user name.
 */
export default defineIntegrationServer({
  headers: ({ username, password }): Record<string, string> =>
    username
      ? { authorization: `Basic ${Buffer.from(`${username}:${password ?? ""}`).toString("base64")}` }
      : {},
  async test(call) {
    const response = await call({ path: "/control/status", what: "its status" });
    if (response.status === 401) throw adguardRefused("this connection");
    const status = StatusAnswer.parse(answeredJson(response, "AdGuard Home"), response);
    return `AdGuard Home ${status.version}${status.running ? "" : " (DNS not running)"}`;
  },
});
