import { defineIntegrationKind } from "../kit.js";

/** AdGuard Home's control API (`/control`) with one of its web users over HTTP Basic. */
export const adguardKind = defineIntegrationKind({
  kind: "adguard",
  label: "AdGuard Home",
  description: "Queries and blocked share from AdGuard Home; editors may pause protection for a while.",
  urlPlaceholder: "http://adguard.lan:3000",
  secrets: [
    {
      name: "username",
      label: "User name",
      required: false,
      help: "A user of AdGuard Home's web interface (the users: list in AdGuardHome.yaml). Leave both empty when it has no users.",
    },
    {
      name: "password",
      label: "Password",
      required: false,
      help: "That user's password. AdGuard Home blocks this server's address for 15 minutes after 5 wrong ones, so Tessera stops asking once one is refused.",
    },
  ],
  headerSecrets: false,
});
