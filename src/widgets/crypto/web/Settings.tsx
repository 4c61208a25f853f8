import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { dataApi } from "../../../web/lib/data-api";
import { Field } from "../../../web/ui/fields";
import { Skeleton } from "../../../web/ui/States";
import { QueryView } from "../../../web/widget-kit/data/QueryView";
import { SearchInput } from "../../../web/widget-kit/SearchInput";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import { type CryptoConfig, MAX_PAIRS } from "../contract";
import { baseOf, QUOTES, quoteOf, toggleBase, withQuote } from "./logic";

/** The quote currency and the coins to follow, from the exchange's list. */
export function CurrencySettings({ config, onChange }: WidgetSettingsProps<CryptoConfig>) {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const currencies = useQuery({
    queryKey: ["exchange", "currencies"],
    queryFn: dataApi.exchange.currencies,
    staleTime: 5 * 60_000,
  });
  const quote = quoteOf(config);
  const selected = useMemo(() => new Set(config.pairs.map(baseOf)), [config.pairs]);
  const full = config.pairs.length >= MAX_PAIRS;

  const shown = useMemo(() => {
    const all = currencies.data ?? [];
    const q = search.trim().toLowerCase();
    const matches = all.filter(
      (c) => !q || c.id.toLowerCase().includes(q) || c.name.toLowerCase().includes(q),
    );
    // Chosen ones first (in the order they show on the widget), then the rest alphabetically.
    const chosen = config.pairs
      .map(baseOf)
      .map((id) => matches.find((c) => c.id === id) ?? (q ? null : { id, name: id }))
      .filter((c): c is { id: string; name: string } => c !== null);
    return [...chosen, ...matches.filter((c) => !selected.has(c.id))];
  }, [currencies.data, search, config.pairs, selected]);

  return (
    <>
      <Field label={t("widgets.crypto.settings.pricesIn")}>
        {(id) => (
          <select
            id={id}
            value={quote}
            onChange={(e) => onChange({ ...config, pairs: withQuote(config.pairs, e.target.value) })}
          >
            {[...new Set([...QUOTES, quote])].map((q) => (
              <option key={q} value={q}>
                {q}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="field">
        <span className="field-label" id="crypto-currencies-label">
          {t("widgets.crypto.settings.currencies", { used: config.pairs.length, max: MAX_PAIRS })}
        </span>
        <SearchInput
          inForm
          aria-label={t("widgets.crypto.settings.search")}
          placeholder={t("widgets.crypto.settings.searchPlaceholder")}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <QueryView
          query={currencies}
          skeleton={<Skeleton height={160} width="100%" />}
          errorTitle={t("widgets.crypto.settings.listFailed")}
          upstream="exchange"
        >
          {() => (
            <ul className="check-list" aria-labelledby="crypto-currencies-label">
              {shown.length === 0 && (
                <li className="muted">{t("widgets.crypto.settings.noMatch", { query: search })}</li>
              )}
              {shown.map((c) => {
                const checked = selected.has(c.id);
                return (
                  <li key={c.id}>
                    <label className="checkbox-row">
                      <input
                        type="checkbox"
                        checked={checked}
                        disabled={!checked && full}
                        onChange={() => onChange(toggleBase(config, c.id))}
                      />
                      <strong className="check-list-id">{c.id}</strong>
                      <span className="muted">{c.name}</span>
                    </label>
                  </li>
                );
              })}
            </ul>
          )}
        </QueryView>
      </div>
    </>
  );
}
