import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { feedData, feedRoutes } from "./routes.js";

export default defineWidgetServer({ data: feedData, routes: feedRoutes });
