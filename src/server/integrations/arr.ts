import { Type } from "@sinclair/typebox";
import { upstreamFailed } from "../http/errors.js";
import { defineSource } from "../upstream/source.js";
import { answeredJson, defineIntegrationServer, type IntegrationKindServer } from "./kit.js";

const SystemStatus = defineSource(
  Type.Object({
    appName: Type.Optional(Type.String()),
    instanceName: Type.Optional(Type.String()),
    version: Type.String(),
  }),
);

/**
 * The server half of an *arr (Sonarr, Radarr): the same ASP.NET API v3 under another name. The API
 * key travels in `X-Api-Key` on every call (they also read `?apikey=`, which would put it in logs);
 * a connection is tested by `/api/v3/system/status`, whose `appName` tells `app` from `sibling`,
 * the other *arr an address is most often mistaken for.
 */
export function arrIntegrationServer(app: string, sibling: string): IntegrationKindServer {
  return defineIntegrationServer({
    headers: ({ apiKey }): Record<string, string> => (apiKey ? { "x-api-key": apiKey } : {}),
    async test(call) {
      const response = await call({
        path: "/api/v3/system/status",
        what: "its status",
        headers: { accept: "application/json" },
      });
      if (response.status === 404)
        throw upstreamFailed(
          `${app} answered 404: nothing is at /api/v3 here. If ${app} has a URL Base (Settings > General), add it to the address`,
        );
      const status = SystemStatus.parse(answeredJson(response, app), response);
      const answering = status.appName ?? app;
      const named = answering.toLowerCase();
      if (named !== app.toLowerCase())
        throw upstreamFailed(
          `This address is ${answering} ${status.version}, not ${app}${named === sibling.toLowerCase() ? `: save it as a ${sibling} integration` : ""}`,
        );
      const instance =
        status.instanceName && status.instanceName !== answering ? ` (${status.instanceName})` : "";
      return `${app} ${status.version}${instance}`;
    },
  });
}
