import { defineIntegrationKind } from "../kit.js";

/** Any JSON API: its secrets are request headers, sent as they are named. */
export const customKind = defineIntegrationKind({
  kind: "custom",
  label: "Custom API",
  description: "Any service that answers JSON over HTTP. Secrets are sent as request headers.",
  urlPlaceholder: "http://nas.lan:8080/api",
  secrets: [],
  headerSecrets: true,
});
