import i18next from "i18next";
import en from "../../src/web/i18n/locales/en.json" with { type: "json" };
import { WIDGETS } from "../../src/web/widget-kit/registry.js";
import { PRIVATE_WIDGET_TYPES, widgetDefinition } from "../../src/widgets/index.js";

/**
 * The widget types the browser tests drive, derived from the definitions so a new type is
 * covered without touching the tests: in the picker's order, with the names the picker shows.
 * (Server tests spell the spec's thirteen independently, in test/support/spec.ts.)
 */
const catalog = i18next.createInstance();
const english = await catalog.init({ lng: "en", resources: { en: { translation: en } } });

export const OFFERED_WIDGETS = WIDGETS.map((d) => {
  const contract = widgetDefinition(d.type);
  if (!contract) throw new Error(`${d.type} has no contract definition`);
  return { type: d.type, name: d.words(english).name, data: contract.data.kind };
});

/** Widgets that show only their own config, with no data source behind them. */
export const CONFIG_WIDGETS = OFFERED_WIDGETS.filter((w) => w.data === "config");

/** Widgets that show server data: a keyless service or a connected account. */
export const DATA_WIDGETS = OFFERED_WIDGETS.filter((w) => w.data !== "config");

/** Widgets that read the owner's connected accounts and never appear on a public dashboard. */
export const PRIVATE_TYPES: readonly string[] = PRIVATE_WIDGET_TYPES;
