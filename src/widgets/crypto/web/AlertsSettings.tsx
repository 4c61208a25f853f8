import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { t as translate } from "../../../web/i18n/i18n";
import { useLocale } from "../../../web/i18n/use-locale";
import { newId } from "../../../web/lib/ids";
import { Icon } from "../../../web/ui/icons";
import { AlertHint } from "../../../web/widget-kit/settings/AlertOption";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import { ALERT_DIRECTIONS, type CryptoConfig, MAX_PRICE_ALERTS } from "../contract";
import {
  type AlertDirection,
  addAlert,
  formatAlertPrice,
  parseAlertPrice,
  quoteOfPair,
  removeAlert,
} from "./logic";

/** "rises above", "falls below", in the language of the moment. */
const directionLabel = (direction: AlertDirection): string =>
  direction === "below" ? translate("widgets.crypto.alerts.below") : translate("widgets.crypto.alerts.above");

/** A select of the add row, which reads as a sentence: its label is for screen readers only. */
function RowSelect<V extends string>({
  label,
  value,
  options,
  disabled,
  onChange,
}: {
  label: string;
  value: V;
  options: readonly (readonly [value: V, text: string])[];
  disabled: boolean;
  onChange(value: NoInfer<V>): void;
}) {
  const id = useId();
  return (
    <>
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
      <select id={id} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as V)}>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </>
  );
}

/** `alerts`: the server tells the user when a pair's price crosses a line (issue 16). */
export function AlertsSettings({ config, onChange }: WidgetSettingsProps<CryptoConfig>) {
  const { t } = useTranslation();
  const locale = useLocale();
  const alerts = config.alerts ?? [];
  const [pick, setPick] = useState(config.pairs[0] ?? "");
  const [direction, setDirection] = useState<AlertDirection>("above");
  const [priceText, setPriceText] = useState("");
  const ids = { legend: useId(), hint: useId(), error: useId(), price: useId() };
  // The chosen pair may have been unticked above in this same draft.
  const pair = config.pairs.includes(pick) ? pick : (config.pairs[0] ?? "");
  const price = parseAlertPrice(priceText);
  const typedBadPrice = priceText.trim() !== "" && price === null;
  const full = alerts.length >= MAX_PRICE_ALERTS;
  const blocked =
    config.pairs.length === 0
      ? t("widgets.crypto.alerts.chooseFirst")
      : full
        ? t("widgets.crypto.alerts.atMost", { max: MAX_PRICE_ALERTS })
        : null;

  const add = () => {
    if (blocked || !pair || price === null) return;
    onChange(addAlert(config, { id: newId(), pair, direction, price }));
    setPriceText("");
  };

  return (
    <fieldset className="field crypto-alerts" aria-describedby={ids.hint}>
      <legend className="field-label" id={ids.legend}>
        {t("widgets.crypto.alerts.legend", { used: alerts.length, max: MAX_PRICE_ALERTS })}
      </legend>
      {alerts.length === 0 ? (
        <p className="muted crypto-alerts-empty">{t("widgets.crypto.alerts.none")}</p>
      ) : (
        <ul className="crypto-alert-list" aria-labelledby={ids.legend}>
          {alerts.map((alert) => {
            const price = formatAlertPrice(alert.price, quoteOfPair(alert.pair), locale);
            const words = `${alert.pair} ${directionLabel(alert.direction)} ${price}`;
            return (
              <li key={alert.id} className="crypto-alert" data-alert-id={alert.id}>
                <Icon name="bell" size={14} />
                <span className="crypto-alert-text">
                  <strong>{alert.pair}</strong> {directionLabel(alert.direction)} <strong>{price}</strong>
                  {!config.pairs.includes(alert.pair) && (
                    <span className="muted"> {t("widgets.crypto.alerts.notOnWidget")}</span>
                  )}
                </span>
                <button
                  type="button"
                  className="icon-button small danger"
                  aria-label={t("widgets.crypto.alerts.remove", { alert: words })}
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
        <RowSelect
          label={t("widgets.crypto.alerts.pair")}
          value={pair}
          options={config.pairs.map((p) => [p, p] as const)}
          disabled={blocked !== null}
          onChange={setPick}
        />
        <RowSelect
          label={t("widgets.crypto.alerts.direction")}
          value={direction}
          options={ALERT_DIRECTIONS.map((d) => [d, directionLabel(d)] as const)}
          disabled={blocked !== null}
          onChange={setDirection}
        />
        <label className="visually-hidden" htmlFor={ids.price}>
          {pair
            ? t("widgets.crypto.alerts.priceIn", { quote: quoteOfPair(pair) })
            : t("widgets.crypto.alerts.price")}
        </label>
        <input
          id={ids.price}
          className="crypto-alert-price"
          inputMode="decimal"
          autoComplete="off"
          placeholder={
            pair
              ? t("widgets.crypto.alerts.pricePlaceholderIn", { quote: quoteOfPair(pair) })
              : t("widgets.crypto.alerts.pricePlaceholder")
          }
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
          <Icon name="plus" size={14} /> {t("widgets.crypto.alerts.add")}
        </button>
      </div>
      {typedBadPrice && (
        <p className="field-error" id={ids.error} role="alert">
          {t("widgets.crypto.alerts.badPrice")}
        </p>
      )}
      {blocked && <p className="field-hint">{blocked}</p>}
      <AlertHint id={ids.hint} />
    </fieldset>
  );
}
