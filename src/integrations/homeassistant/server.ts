import { Type } from "@sinclair/typebox";
import { answeredJson, defineIntegrationServer } from "../../server/integrations/kit.js";
import { defineSource } from "../../server/upstream/source.js";

const ApiConfig = defineSource(
  Type.Object({ version: Type.String(), location_name: Type.Optional(Type.String()) }),
);

/** A long-lived access token as a Bearer token on every call. */
export default defineIntegrationServer({
  headers: ({ token }): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {}),
  async test(call) {
    const response = await call({ path: "/api/config", what: "its configuration" });
    const config = ApiConfig.parse(answeredJson(response, "Home Assistant"), response);
    return `Home Assistant ${config.version}${config.location_name ? ` (${config.location_name})` : ""}`;
  },
});
