import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { feedRoutes } from "./routes.js";

export default defineWidgetServer({ routes: feedRoutes });
