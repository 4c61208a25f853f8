import { defineIntegrationKind } from "../kit.js";

/** Radarr (v5 and v6, its API v3) with its API key. */
export const radarrKind = defineIntegrationKind({
  kind: "radarr",
  label: "Radarr",
  description: "Upcoming movie releases and the download queue of Radarr.",
  urlPlaceholder: "http://radarr.local:7878",
  secrets: [
    {
      name: "apiKey",
      label: "API key",
      required: true,
      help: "In Radarr: Settings > General > Security, API Key. If Radarr has a URL Base (same page), add it to the address: http://host:7878/radarr.",
    },
  ],
  headerSecrets: false,
});
