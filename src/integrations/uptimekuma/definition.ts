import { defineIntegrationKind } from "../kit.js";

/** Uptime Kuma: its public status pages, and its metrics with an API key. */
export const uptimeKumaKind = defineIntegrationKind({
  kind: "uptimekuma",
  label: "Uptime Kuma",
  description:
    "Monitors from Uptime Kuma: a status page's monitors need no key; every monitor (from its metrics) needs an API key.",
  urlPlaceholder: "http://kuma.lan:3001",
  secrets: [
    {
      name: "apiKey",
      label: "API key",
      required: false,
      help: "Settings, API Keys, Add API Key in Uptime Kuma (1.21 or later). Without one, name a status page in the widget.",
    },
  ],
  headerSecrets: false,
});
