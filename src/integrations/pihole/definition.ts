import { defineIntegrationKind } from "../kit.js";

/** Pi-hole v6's REST API (`/api`), signed in with a password; v5's `api.php` is not spoken. */
export const piholeKind = defineIntegrationKind({
  kind: "pihole",
  label: "Pi-hole",
  description: "Queries and blocked share from Pi-hole v6; editors may pause blocking for a while.",
  urlPlaceholder: "http://pi.hole",
  secrets: [
    {
      name: "password",
      label: "App password",
      required: false,
      help: "In Pi-hole (v6): Settings, Web interface / API, expert mode, Configure app password. It is shown once, and making one signs everyone out. The web password works too, unless two-factor authentication is on. Leave empty when your Pi-hole has no password.",
    },
  ],
  headerSecrets: false,
});
