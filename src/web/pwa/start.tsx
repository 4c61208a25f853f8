import { createRoot } from "react-dom/client";
import { watchConnection } from "./connection";
import { OfflineBanner } from "./OfflineBanner";
import { registerWorker } from "./register";
import "./offline-banner.css";

/**
 * The installable app's part of the page (index.html loads it after main.tsx): the service worker
 * and the offline banner, in a root of its own above the app's, so it shows on whatever screen the
 * app is on (a dashboard, sign-in, a public dashboard).
 */
watchConnection();
registerWorker();
const host = document.getElementById("offline-banner");
if (host) createRoot(host).render(<OfflineBanner />);
