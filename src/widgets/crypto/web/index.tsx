import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { t } from "../../../web/i18n/i18n";
import { useLocale } from "../../../web/i18n/use-locale";
import { type PairPrices, TIMEFRAMES, type Timeframe } from "../../../web/lib/data-api";
import { Icon } from "../../../web/ui/icons";
import { DataFrame } from "../../../web/widget-kit/data/DataFrame";
import { formatPercent, formatPrice } from "../../../web/widget-kit/data/format";
import { Sparkline } from "../../../web/widget-kit/data/Sparkline";
import { pricesRequest, useDataSource } from "../../../web/widget-kit/data/source";
import { useWidgetData } from "../../../web/widget-kit/data/useWidgetData";
import { defineWidget, type WidgetProps } from "../../../web/widget-kit/types";
import { WidgetEmpty } from "../../../web/widget-kit/WidgetEmpty";
import { type CryptoConfig, cryptoWidget as contract } from "../contract";
import { AlertsSettings } from "./AlertsSettings";
import {
  type CryptoRow,
  cryptoRows,
  rememberPrices,
  timeframeName,
  timeframeOption,
  timeframeShort,
} from "./logic";
import { CurrencySettings } from "./Settings";

function PriceRow({ row, timeframe }: { row: CryptoRow; timeframe: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (row.kind === "error") {
    return (
      <li className="crypto-row is-error" data-pair={row.pair}>
        <div className="crypto-name">
          <strong>{row.base}</strong>
          <span>{row.pair}</span>
        </div>
        <p className="crypto-error" title={row.detail}>
          <Icon name="alert" size={13} /> {row.detail}
        </p>
      </li>
    );
  }
  return (
    <li className={`crypto-row is-${row.trend}${row.stale ? " is-stale" : ""}`} data-pair={row.pair}>
      <div className="crypto-name">
        <strong>{row.base}</strong>
        <span>{row.pair}</span>
      </div>
      <Sparkline
        values={row.closes}
        trend={row.trend}
        label={t("widgets.crypto.over", {
          base: row.base,
          timeframe,
          change: formatPercent(row.changePercent),
        })}
      />
      <div className="crypto-price">
        <strong>{formatPrice(row.price, row.quote, locale)}</strong>
        {row.stale ? (
          <span className="crypto-row-stale" title={t("widgets.crypto.refreshFailed", { reason: row.stale })}>
            <Icon name="alert" size={11} /> {t("widgets.crypto.stale")}
          </span>
        ) : (
          <span className="crypto-change">{formatPercent(row.changePercent)}</span>
        )}
      </div>
    </li>
  );
}

function CryptoWidget({ widget, config, update, openSettings, readOnly }: WidgetProps<CryptoConfig>) {
  const { t } = useTranslation();
  const { pairs, timeframe } = config;
  // Each pair's last good answer per timeframe: a pair whose refresh fails keeps its old price.
  const memory = useRef(new Map<Timeframe, Map<string, PairPrices>>());
  const remembered = (frame: Timeframe) => {
    const map = memory.current.get(frame) ?? new Map<string, PairPrices>();
    memory.current.set(frame, map);
    return map;
  };
  const source = useDataSource();
  const query = useWidgetData({
    ...pricesRequest(source, widget.id, pairs, timeframe),
    refreshMs: 60_000,
    enabled: pairs.length > 0,
  });
  if (pairs.length === 0) {
    return (
      <WidgetEmpty
        text={readOnly ? t("widgets.crypto.noneChosen") : t("widgets.crypto.pick")}
        action={readOnly ? undefined : { label: t("widgets.crypto.choose"), onClick: openSettings }}
      />
    );
  }
  return (
    <div className="crypto">
      {readOnly ? (
        <p className="crypto-timeframe-label">
          {t("widgets.crypto.changeOver", { timeframe: timeframeName(timeframe) })}
        </p>
      ) : (
        <fieldset className="segmented crypto-timeframes">
          <legend className="visually-hidden">{t("widgets.crypto.timeframe")}</legend>
          {TIMEFRAMES.map((frame) => (
            <button
              key={frame}
              type="button"
              aria-pressed={frame === timeframe}
              title={t("widgets.crypto.show", { timeframe: timeframeName(frame) })}
              onClick={() => update((c) => ({ ...c, timeframe: frame }))}
            >
              {timeframeShort(frame)}
            </button>
          ))}
        </fieldset>
      )}
      <DataFrame query={query} upstream="exchange" label={t("widgets.crypto.data")} readOnly={readOnly}>
        {(results) => {
          // Rows from what was remembered before this answer, then remember its good prices.
          const known = remembered(timeframe);
          const rows = cryptoRows(pairs, results, known);
          rememberPrices(known, results);
          return (
            <ul className="crypto-list">
              {rows.map((row) => (
                <PriceRow key={row.pair} row={row} timeframe={timeframeName(timeframe)} />
              ))}
            </ul>
          );
        }}
      </DataFrame>
    </div>
  );
}

function CryptoPreview() {
  const locale = useLocale();
  const percent = new Intl.NumberFormat(locale, {
    style: "percent",
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    signDisplay: "exceptZero",
  });
  return (
    <div className="preview preview-crypto">
      {PREVIEW_ROWS.map(([base, d, trend, change]) => (
        <div key={base} className={`preview-row is-${trend}`}>
          <strong>{base}</strong>
          <svg viewBox="0 0 50 16" aria-hidden="true">
            <path d={d} fill="none" stroke="currentColor" strokeWidth="1.5" />
          </svg>
          <span>{percent.format(change).replace(HYPHEN, MINUS)}</span>
        </div>
      ))}
    </div>
  );
}

/** The picker's sample rows: symbol, sparkline path, trend, change. */
const PREVIEW_ROWS = [
  ["BTC", "M0,14 L10,10 L20,12 L30,6 L40,8 L50,2", "up", 0.024],
  ["ETH", "M0,4 L10,6 L20,5 L30,10 L40,9 L50,13", "down", -0.011],
] as const;
const HYPHEN = "-";
const MINUS = "−";

export default defineWidget(contract, {
  group: "data",
  words: (t) => ({ name: t("widgets.crypto.name"), description: t("widgets.crypto.description") }),
  keywords: ["bitcoin", "prices", "market", "finance", "coins", "exchange", "alert"],
  icon: "chart",
  defaultSize: { columns: 6, rows: 16 },
  minSize: { columns: 4, rows: 9 },
  Component: CryptoWidget,
  settings: [
    // Getters: the form reads its words when it renders, in the language of that moment.
    {
      key: "timeframe",
      get label() {
        return t("widgets.crypto.timeframe");
      },
      get options() {
        return TIMEFRAMES.map((frame) => [frame, timeframeOption(frame)] as const);
      },
    },
    CurrencySettings,
    AlertsSettings,
  ],
  Preview: CryptoPreview,
});
