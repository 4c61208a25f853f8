import type { Timeframe } from "../../../contract/data.js";
import type { Notification } from "../../../contract/resources.js";
import { type ServerText, serverText } from "../../../contract/server-text.js";
import type { Db } from "../../../server/db/client.js";
import type { Market } from "../../../server/exchange/market.js";
import { recordAlert } from "../../../server/jobs/record.js";
import type { WatchDeps, WatchedWidget, Watcher } from "../../../server/jobs/watch/pass.js";
import { lockWatchStates } from "../../../server/jobs/watch/states.js";
import type { CryptoConfig, PriceAlert } from "../contract.js";
import { DEFAULT_TIMEFRAME } from "../contract.js";

/** A price alert's memory between passes: for which line it was armed, and how often it fired. */
interface PriceState {
  /** `direction:price`: an edited alert starts over. */
  line: string;
  armed: boolean;
  fired: number;
}

const stateKey = (alert: PriceAlert) => `price:${alert.id}`;
const lineOf = (alert: PriceAlert) => `${alert.direction}:${alert.price}`;
const crossed = (alert: PriceAlert, price: number) =>
  alert.direction === "above" ? price >= alert.price : price <= alert.price;

/** Numbers are formatted in the recipient's language by the catalog (`number` format). */
function textOf(alert: PriceAlert, price: number): ServerText {
  const values = { pair: alert.pair, line: alert.price, quote: alert.pair.split("-")[1] ?? "", price };
  return alert.direction === "above"
    ? serverText("alerts.crypto.above", values)
    : serverText("alerts.crypto.below", values);
}

/**
 * What a pass decides for one alert, given its remembered state and the latest price:
 * - first sight, or the line was edited: remember it, armed only if the price is not already
 *   past the line (an alert fires on a crossing, not on a price that was past it all along);
 * - armed and crossed: fire, disarm;
 * - disarmed and back on the near side: re-arm (hysteresis: one alert per crossing, not per pass).
 */
export function decide(
  alert: PriceAlert,
  state: PriceState | undefined,
  price: number,
): { next: PriceState; fire: boolean } {
  const line = lineOf(alert);
  const past = crossed(alert, price);
  if (!state || state.line !== line) return { next: { line, armed: !past, fired: 0 }, fire: false };
  if (state.armed && past) return { next: { line, armed: false, fired: state.fired + 1 }, fire: true };
  if (!state.armed && !past) return { next: { ...state, armed: true }, fire: false };
  return { next: state, fire: false };
}

/** The timeframe whose cached prices a tab showing this widget reads too: no extra exchange calls. */
function timeframeFor(config: CryptoConfig, pair: string): Timeframe {
  return config.pairs.includes(pair) ? config.timeframe : DEFAULT_TIMEFRAME;
}

export function priceAlertWatcher(market: Market): Watcher {
  return {
    type: "Crypto",
    async check(deps, watched) {
      const widgets = watched as WatchedWidget<CryptoConfig>[];
      const wanted = new Map<string, { pair: string; timeframe: Timeframe }>();
      for (const { config } of widgets) {
        for (const alert of config.alerts ?? []) {
          const timeframe = timeframeFor(config, alert.pair);
          wanted.set(`${alert.pair}|${timeframe}`, { pair: alert.pair, timeframe });
        }
      }
      const prices = new Map<string, number>();
      await Promise.all(
        [...wanted].map(async ([key, { pair, timeframe }]) => {
          try {
            prices.set(key, (await market.prices(pair, timeframe)).price);
          } catch (error) {
            // No price, no decision: the alert keeps its state until a pass sees one.
            deps.log.warn({ err: error, pair }, "price alerts: no price for the pair");
          }
        }),
      );
      const fired: Notification[] = [];
      for (const widget of widgets) {
        const latest = (alert: PriceAlert) =>
          prices.get(`${alert.pair}|${timeframeFor(widget.config, alert.pair)}`);
        fired.push(...(await checkWidget(deps, widget, latest)));
      }
      return fired;
    },
  };
}

/** One widget's alerts in one transaction, its state rows locked: a concurrent pass waits. */
async function checkWidget(
  deps: WatchDeps,
  widget: WatchedWidget<CryptoConfig>,
  latest: (alert: PriceAlert) => number | undefined,
): Promise<Notification[]> {
  return deps.database.db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const states = await lockWatchStates<PriceState>(tx, widget.id, "price:", deps.clock);
    const alerts = widget.config.alerts ?? [];
    const fired: Notification[] = [];
    for (const alert of alerts) {
      const price = latest(alert);
      if (price === undefined) continue;
      const key = stateKey(alert);
      const before = states.get(key);
      const { next, fire } = decide(alert, before, price);
      if (next !== before) await states.save(key, next);
      if (!fire) continue;
      const notification = await recordAlert(tx, deps.queue, deps.notifications, {
        userId: widget.userId,
        widgetId: widget.id,
        key: `${widget.id}:${key}:${next.line}:${next.fired}`,
        text: textOf(alert, price),
      });
      if (notification) fired.push(notification);
    }
    await states.keepOnly(alerts.map(stateKey));
    return fired;
  });
}
