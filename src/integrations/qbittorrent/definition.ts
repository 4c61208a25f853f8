import { defineIntegrationKind } from "../kit.js";

/** qBittorrent's Web API v2: a WebUI sign-in (a session cookie), or an API key from 5.2 on. */
export const qbittorrentKind = defineIntegrationKind({
  kind: "qbittorrent",
  label: "qBittorrent",
  description: "Transfer speeds and active torrents from qBittorrent's WebUI.",
  urlPlaceholder: "http://qbittorrent.lan:8080",
  secrets: [
    {
      name: "username",
      label: "WebUI user name",
      required: false,
      help: "Options, WebUI, Authentication in qBittorrent. Leave empty when it lets this server in without signing in.",
    },
    {
      name: "password",
      label: "WebUI password",
      required: false,
      help: "After 5 wrong passwords qBittorrent bans this server's address for an hour; Tessera stops trying after the first.",
    },
    {
      name: "apiKey",
      label: "API key (qBittorrent 5.2 or later)",
      required: false,
      help: "Options, WebUI, API key. Used instead of the user name and password when set.",
    },
  ],
  headerSecrets: false,
});
