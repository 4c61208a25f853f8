import { useRef } from "react";
import { type CryptoConfig, cryptoWidget as contract } from "../../../contract/widgets/crypto";
import { type PairPrices, TIMEFRAMES, type Timeframe } from "../../lib/data-api";
import { Icon } from "../../ui/icons";
import { DataFrame } from "../data/DataFrame";
import { formatPercent, formatPrice } from "../data/format";
import { Sparkline } from "../data/Sparkline";
import { pricesRequest, useDataSource } from "../data/source";
import { useWidgetData } from "../data/useWidgetData";
import { defineWidget, type WidgetProps } from "../types";
import { AlertsSettings } from "./AlertsSettings";
import { type CryptoRow, cryptoRows, rememberPrices, TIMEFRAME_LABELS, TIMEFRAME_NAMES } from "./logic";
import { CurrencySettings } from "./Settings";

function PriceRow({ row, timeframe }: { row: CryptoRow; timeframe: string }) {
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
        label={`${row.base} over ${timeframe}: ${formatPercent(row.changePercent)}`}
      />
      <div className="crypto-price">
        <strong>{formatPrice(row.price, row.quote)}</strong>
        {row.stale ? (
          <span className="crypto-row-stale" title={`Refresh failed: ${row.stale}`}>
            <Icon name="alert" size={11} /> stale
          </span>
        ) : (
          <span className="crypto-change">{formatPercent(row.changePercent)}</span>
        )}
      </div>
    </li>
  );
}

function CryptoWidget({ widget, config, update, openSettings, readOnly }: WidgetProps<CryptoConfig>) {
  const { pairs, timeframe } = config;
  // Each pair's last good answer per timeframe: a pair whose refresh fails keeps its old price.
  const memory = useRef(new Map<Timeframe, Map<string, PairPrices>>());
  const remembered = (t: Timeframe) => {
    const map = memory.current.get(t) ?? new Map<string, PairPrices>();
    memory.current.set(t, map);
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
      <div className="widget-empty">
        <p>{readOnly ? "No currencies chosen yet." : "Pick the currencies to follow."}</p>
        {!readOnly && (
          <button type="button" className="button small" onClick={openSettings}>
            Choose currencies
          </button>
        )}
      </div>
    );
  }
  return (
    <div className="crypto">
      {readOnly ? (
        <p className="crypto-timeframe-label">Change over {TIMEFRAME_NAMES[timeframe]}</p>
      ) : (
        <fieldset className="segmented crypto-timeframes">
          <legend className="visually-hidden">Timeframe</legend>
          {TIMEFRAMES.map((t) => (
            <button
              key={t}
              type="button"
              aria-pressed={t === timeframe}
              title={`Show ${TIMEFRAME_NAMES[t]}`}
              onClick={() => update((c) => ({ ...c, timeframe: t }))}
            >
              {TIMEFRAME_LABELS[t]}
            </button>
          ))}
        </fieldset>
      )}
      <DataFrame query={query} upstream="exchange" label="prices" readOnly={readOnly}>
        {(results) => {
          // Rows from what was remembered before this answer, then remember its good prices.
          const known = remembered(timeframe);
          const rows = cryptoRows(pairs, results, known);
          rememberPrices(known, results);
          return (
            <ul className="crypto-list">
              {rows.map((row) => (
                <PriceRow key={row.pair} row={row} timeframe={TIMEFRAME_NAMES[timeframe]} />
              ))}
            </ul>
          );
        }}
      </DataFrame>
    </div>
  );
}

function CryptoPreview() {
  return (
    <div className="preview preview-crypto">
      {(
        [
          ["BTC", "M0,14 L10,10 L20,12 L30,6 L40,8 L50,2", "up", "+2.4%"],
          ["ETH", "M0,4 L10,6 L20,5 L30,10 L40,9 L50,13", "down", "−1.1%"],
        ] as const
      ).map(([base, d, trend, change]) => (
        <div key={base} className={`preview-row is-${trend}`}>
          <strong>{base}</strong>
          <svg viewBox="0 0 50 16" aria-hidden="true">
            <path d={d} fill="none" stroke="currentColor" strokeWidth="1.5" />
          </svg>
          <span>{change}</span>
        </div>
      ))}
    </div>
  );
}

export const cryptoWidget = defineWidget(contract, {
  name: "Crypto",
  description: "Live prices of the coins you follow, with the change and a chart of the window.",
  keywords: ["bitcoin", "prices", "market", "finance", "coins", "exchange", "alert"],
  icon: "chart",
  defaultSize: { columns: 6, rows: 16 },
  minSize: { columns: 4, rows: 9 },
  Component: CryptoWidget,
  settings: [
    {
      key: "timeframe",
      label: "Timeframe",
      options: TIMEFRAMES.map((t) => [t, TIMEFRAME_NAMES[t].replace(/^the last/, "Last")] as const),
    },
    CurrencySettings,
    AlertsSettings,
  ],
  Preview: CryptoPreview,
});
