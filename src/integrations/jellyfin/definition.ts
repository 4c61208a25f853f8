import { defineIntegrationKind } from "../kit.js";

/** Jellyfin's REST API with an API key (Dashboard, API Keys). */
export const jellyfinKind = defineIntegrationKind({
  kind: "jellyfin",
  label: "Jellyfin",
  description: "What is playing on Jellyfin now, and what was added lately.",
  urlPlaceholder: "http://jellyfin.lan:8096",
  secrets: [
    {
      name: "apiKey",
      label: "API key",
      required: true,
      help: "In Jellyfin, Dashboard, API Keys, the + button; name it Tessera. An admin's key: it sees every session.",
    },
  ],
  headerSecrets: false,
});
