import { useId, useState } from "react";
import { ALERT_DIRECTIONS, type CryptoConfig, MAX_PRICE_ALERTS } from "../../../contract/widgets/crypto";
import { newId } from "../../lib/ids";
import { Icon } from "../../ui/icons";
import { AlertHint } from "../settings/AlertOption";
import type { WidgetSettingsProps } from "../types";
import {
  type AlertDirection,
  addAlert,
  formatAlertPrice,
  parseAlertPrice,
  quoteOfPair,
  removeAlert,
} from "./logic";

const DIRECTION_LABELS: Record<AlertDirection, string> = { above: "rises above", below: "falls below" };

/** `alerts`: the server tells the user when a pair's price crosses a line (issue 16). */
export function AlertsSettings({ config, onChange }: WidgetSettingsProps<CryptoConfig>) {
  const alerts = config.alerts ?? [];
  const [pick, setPick] = useState(config.pairs[0] ?? "");
  const [direction, setDirection] = useState<AlertDirection>("above");
  const [priceText, setPriceText] = useState("");
  const ids = { legend: useId(), hint: useId(), error: useId(), pair: useId(), dir: useId(), price: useId() };
  // The chosen pair may have been unticked above in this same draft.
  const pair = config.pairs.includes(pick) ? pick : (config.pairs[0] ?? "");
  const price = parseAlertPrice(priceText);
  const typedBadPrice = priceText.trim() !== "" && price === null;
  const full = alerts.length >= MAX_PRICE_ALERTS;
  const blocked =
    config.pairs.length === 0
      ? "Choose a currency above first."
      : full
        ? `At most ${MAX_PRICE_ALERTS} alerts.`
        : null;

  const add = () => {
    if (blocked || !pair || price === null) return;
    onChange(addAlert(config, { id: newId(), pair, direction, price }));
    setPriceText("");
  };

  return (
    <fieldset className="field crypto-alerts" aria-describedby={ids.hint}>
      <legend className="field-label" id={ids.legend}>
        Price alerts ({alerts.length} of at most {MAX_PRICE_ALERTS})
      </legend>
      {alerts.length === 0 ? (
        <p className="muted crypto-alerts-empty">No alerts yet.</p>
      ) : (
        <ul className="crypto-alert-list" aria-labelledby={ids.legend}>
          {alerts.map((alert) => {
            const words = `${alert.pair} ${DIRECTION_LABELS[alert.direction]} ${formatAlertPrice(alert.price, quoteOfPair(alert.pair))}`;
            return (
              <li key={alert.id} className="crypto-alert" data-alert-id={alert.id}>
                <Icon name="bell" size={14} />
                <span className="crypto-alert-text">
                  <strong>{alert.pair}</strong> {DIRECTION_LABELS[alert.direction]}{" "}
                  <strong>{formatAlertPrice(alert.price, quoteOfPair(alert.pair))}</strong>
                  {!config.pairs.includes(alert.pair) && <span className="muted"> (not on the widget)</span>}
                </span>
                <button
                  type="button"
                  className="icon-button small danger"
                  aria-label={`Remove alert: ${words}`}
                  onClick={() => onChange(removeAlert(config, alert.id))}
                >
                  <Icon name="trash" size={14} />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <div className="crypto-alert-add">
        <label className="visually-hidden" htmlFor={ids.pair}>
          Alert pair
        </label>
        <select
          id={ids.pair}
          value={pair}
          disabled={blocked !== null}
          onChange={(e) => setPick(e.target.value)}
        >
          {config.pairs.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
        <label className="visually-hidden" htmlFor={ids.dir}>
          Alert direction
        </label>
        <select
          id={ids.dir}
          value={direction}
          disabled={blocked !== null}
          onChange={(e) => setDirection(e.target.value as AlertDirection)}
        >
          {ALERT_DIRECTIONS.map((d) => (
            <option key={d} value={d}>
              {DIRECTION_LABELS[d]}
            </option>
          ))}
        </select>
        <label className="visually-hidden" htmlFor={ids.price}>
          Alert price{pair ? ` in ${quoteOfPair(pair)}` : ""}
        </label>
        <input
          id={ids.price}
          className="crypto-alert-price"
          inputMode="decimal"
          autoComplete="off"
          placeholder={pair ? `Price in ${quoteOfPair(pair)}` : "Price"}
          value={priceText}
          disabled={blocked !== null}
          aria-invalid={typedBadPrice ? true : undefined}
          aria-describedby={typedBadPrice ? ids.error : undefined}
          onChange={(e) => setPriceText(e.target.value)}
          // In a settings form Enter would save and close the panel; here it adds the alert.
          onKeyDown={(e) => {
            if (e.key !== "Enter") return;
            e.preventDefault();
            add();
          }}
        />
        <button
          type="button"
          className="button small"
          disabled={blocked !== null || price === null}
          onClick={add}
        >
          <Icon name="plus" size={14} /> Add alert
        </button>
      </div>
      {typedBadPrice && (
        <p className="field-error" id={ids.error} role="alert">
          Enter a price above 0, like 65000 or 0.42.
        </p>
      )}
      {blocked && <p className="field-hint">{blocked}</p>}
      <AlertHint id={ids.hint} />
    </fieldset>
  );
}
