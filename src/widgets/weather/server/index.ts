import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { weatherRoutes } from "./routes.js";

export default defineWidgetServer({ routes: weatherRoutes });
