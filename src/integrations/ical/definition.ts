import { defineIntegrationKind } from "../kit.js";

/** A calendar feed (iCalendar): a secret address, or a protected one with a user and password. */
export const icalKind = defineIntegrationKind({
  kind: "ical",
  label: "Calendar feed (iCal)",
  description:
    "A calendar's iCal address: Google's secret address, Nextcloud, Outlook, Fastmail, Proton. A username and password only where the feed asks for them (Nextcloud: an app password).",
  urlPlaceholder: "https://cloud.example.com/remote.php/dav/calendars/anna/personal?export",
  secrets: [
    {
      name: "username",
      label: "Username",
      required: false,
      help: "Only for a feed behind a sign-in (HTTP Basic), such as a private Nextcloud calendar.",
    },
    {
      name: "password",
      label: "Password",
      required: false,
      help: "For Nextcloud, make an app password under Settings, Security, Devices & sessions.",
    },
  ],
  headerSecrets: false,
});
