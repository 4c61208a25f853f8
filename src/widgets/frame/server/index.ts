import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { frameRoutes } from "./routes.js";

export default defineWidgetServer({ routes: frameRoutes });
