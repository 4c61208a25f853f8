import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { weatherData, weatherRoutes } from "./routes.js";

export default defineWidgetServer({ data: weatherData, routes: weatherRoutes });
