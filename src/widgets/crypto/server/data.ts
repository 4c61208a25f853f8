import type { Timeframe } from "../../../contract/data.js";
import { PricesResponse } from "../../../contract/data.js";
import type { AppContext } from "../../../server/context.js";
import type { WidgetData } from "../../../server/widgets/data.js";

/**
 * The prices a Crypto widget's stored pairs and timeframe ask for (GET /api/widgets/data and public
 * pages); signed-in readers also use /api/exchange/prices, which shares the market's bytes.
 */
export function cryptoData(ctx: AppContext): WidgetData<{ pairs: string[]; timeframe: Timeframe }> {
  return {
    response: PricesResponse,
    summary: "Prices for a Crypto widget on a public dashboard, without a session",
    description:
      "The pairs and timeframe come from the widget's stored config, read as the owner's app reads it (defaults where it has none). 404 unless the dashboard is public and the widget is a Crypto widget on it following at least one pair.",
    load: ({ pairs, timeframe }, _widgetId, request) => ctx.market.pricesBody(pairs, timeframe, request.log),
  };
}
