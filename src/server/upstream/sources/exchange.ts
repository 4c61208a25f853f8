import { type Static, Type } from "@sinclair/typebox";
import { defineSource } from "../source.js";

/** One candle row is `[time, low, high, open, close, volume]`; extra columns are ignored. */
export const CandlePage = defineSource(Type.Array(Type.Array(Type.Number(), { minItems: 6 })));

/** `/currencies`: only `id`, `name`, `status` and `details.type` are relied on. */
export const CurrencyList = defineSource(
  Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.Optional(Type.Unknown()),
      status: Type.Optional(Type.Unknown()),
      details: Type.Optional(Type.Union([Type.Object({ type: Type.Optional(Type.Unknown()) }), Type.Null()])),
    }),
  ),
);
export type ExchangeCurrency = Static<typeof CurrencyList.schema>[number];
