import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { startI18n } from "./i18n/i18n";
import { createQueryClient, prefetchSession } from "./lib/queries";
import { applyRememberedTheme } from "./lib/theme";
import { followOfflineCopies } from "./pwa/query-copies";
import "./styles/emoji.css";
import "./styles/base.css";
import "./styles/app.css";
import "./styles/widgets.css";
import "./styles/data-widgets.css";
import "./styles/operators.css";
import "./styles/sharing.css";
import "./styles/live.css";
import "./styles/look.css";
import "./styles/profile.css";

applyRememberedTheme();
const root = document.getElementById("root");
const client = createQueryClient();
// Answers the service worker served from its offline copies keep their real age (pwa/).
followOfflineCopies(client);
// On an app page early-bootstrap.js has asked for the first screen's data while this bundle
// loaded, and it has usually arrived. Rendering with it skips a render of the skeleton; if it is
// not in by the next frame, the skeleton shows while it comes, as before.
const sessionOrNextFrame =
  "__tesseraBootstrap" in window
    ? Promise.race([prefetchSession(client), new Promise((next) => requestAnimationFrame(next))])
    : undefined;
// The reader's catalog is loaded before the first render, so no one sees English flash by.
void Promise.all([startI18n(), sessionOrNextFrame]).then(() => {
  if (root) createRoot(root).render(<App client={client} />);
});
