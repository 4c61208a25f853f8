import { defineIntegrationKind } from "../kit.js";

/** Home Assistant's REST API with a long-lived access token. */
export const homeAssistantKind = defineIntegrationKind({
  kind: "homeassistant",
  label: "Home Assistant",
  description: "Entity states from Home Assistant; editors may toggle lights and switches.",
  urlPlaceholder: "http://homeassistant.local:8123",
  secrets: [
    {
      name: "token",
      label: "Long-lived access token",
      required: true,
      help: "In Home Assistant, open your profile, Security, Long-lived access tokens, Create token. It is shown once.",
    },
  ],
  headerSecrets: false,
});
