import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { iconRoutes } from "./routes.js";

export default defineWidgetServer({ routes: iconRoutes });
