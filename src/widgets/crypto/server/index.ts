import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { priceAlertWatcher } from "./price-alerts.js";
import { cryptoRoutes } from "./routes.js";

export default defineWidgetServer({
  routes: cryptoRoutes,
  watchers: ({ ctx }) => [priceAlertWatcher(ctx.market)],
});
