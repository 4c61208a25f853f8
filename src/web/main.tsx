import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { startI18n } from "./i18n/i18n";
import { applyRememberedTheme } from "./lib/theme";
import "./styles/emoji.css";
import "./styles/base.css";
import "./styles/app.css";
import "./styles/widgets.css";
import "./styles/data-widgets.css";
import "./styles/operators.css";
import "./styles/look.css";

applyRememberedTheme();
const root = document.getElementById("root");
// The reader's catalog is loaded before the first render, so no one sees English flash by.
void startI18n().then(() => {
  if (root) createRoot(root).render(<App />);
});
