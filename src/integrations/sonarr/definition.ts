import { defineIntegrationKind } from "../kit.js";

/** Sonarr (v4, its API v3) with its API key. */
export const sonarrKind = defineIntegrationKind({
  kind: "sonarr",
  label: "Sonarr",
  description: "Upcoming episodes and the download queue of Sonarr.",
  urlPlaceholder: "http://sonarr.local:8989",
  secrets: [
    {
      name: "apiKey",
      label: "API key",
      required: true,
      help: "In Sonarr: Settings > General > Security, API Key. If Sonarr has a URL Base (same page), add it to the address: http://host:8989/sonarr.",
    },
  ],
  headerSecrets: false,
});
