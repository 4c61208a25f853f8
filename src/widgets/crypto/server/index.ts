import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { cryptoData } from "./data.js";
import { priceAlertWatcher } from "./price-alerts.js";

export default defineWidgetServer({
  data: cryptoData,
  watchers: ({ ctx }) => [priceAlertWatcher(ctx.market)],
});
