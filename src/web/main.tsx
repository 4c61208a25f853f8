import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { applyRememberedTheme } from "./lib/theme";
import "./styles/emoji.css";
import "./styles/base.css";
import "./styles/app.css";
import "./styles/widgets.css";
import "./styles/data-widgets.css";
import "./styles/operators.css";

applyRememberedTheme();
const root = document.getElementById("root");
if (root) createRoot(root).render(<App />);
