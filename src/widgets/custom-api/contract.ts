import type { Static } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { defineWidgetType } from "../../contract/widget-kit/define.js";
import { HttpUrl, Id, ItemList, OneOf, Text } from "../../contract/widget-kit/fields.js";

/**
 * The Custom API widget (DESIGN section 16): any JSON API, through a saved integration (its
 * secrets travel as request headers) or a plain address, with the values picked out by JMESPath
 * queries the server runs. The browser gets the picked values, never the body or a secret.
 */

export const CUSTOM_API_FORMATS = [
  "text",
  "number",
  "bytes",
  "percent",
  "duration",
  "date",
  "status",
] as const;
export type CustomApiFormat = (typeof CUSTOM_API_FORMATS)[number];
export const CUSTOM_API_DISPLAYS = ["stats", "list", "table"] as const;

export const CUSTOM_API_FIELDS_MAX = 20;
export const CUSTOM_API_COLUMNS_MAX = 10;
/** Rows answered at most: a widget, not a report. */
export const CUSTOM_API_ROWS_MAX = 100;
export const CUSTOM_API_QUERY_MAX = 1000;
export const CUSTOM_API_PATH_MAX = 1024;
export const REFRESH_SECONDS_MIN = 10;
export const REFRESH_SECONDS_MAX = 24 * 3600;
export const REFRESH_SECONDS_DEFAULT = 60;

/**
 * A JMESPath expression, kept exactly as written: a query cut short means something else, so an
 * over-long one is refused on save (server/config-issues.ts), never truncated.
 */
const Query = Type.String({ minLength: 1, maxLength: CUSTOM_API_QUERY_MAX });
const Label = Text({ maxLength: 100, trim: true, default: "" });
const Format = OneOf(CUSTOM_API_FORMATS, { default: "text" });

const CustomApiField = Type.Object({
  id: Id("field"),
  label: Label,
  query: Query,
  format: Format,
  /** Shown after the value ("°C", "users"); bytes, percent and durations bring their own. */
  unit: Type.Optional(Text({ maxLength: 20, trim: true })),
});

const CustomApiColumn = Type.Object({
  id: Id("column"),
  label: Label,
  /** Run on each item of the list (`name`, `state.status`). */
  query: Query,
  format: Format,
});

export const CustomApiConfig = Type.Object({
  /** A saved integration the widget's owner may use (theirs or the instance's). */
  integrationId: Type.Optional(Type.String({ pattern: "^[0-9a-fA-F-]{36}$" })),
  /** A plain address without secrets, checked by the address guard at every request. */
  url: Type.Optional(HttpUrl()),
  /** Appended to the integration's address (`/api/stats?scope=all`); ignored with `url`. */
  path: Type.Optional(Text({ maxLength: CUSTOM_API_PATH_MAX, trim: true })),
  refreshSeconds: Type.Integer({
    minimum: REFRESH_SECONDS_MIN,
    maximum: REFRESH_SECONDS_MAX,
    default: REFRESH_SECONDS_DEFAULT,
  }),
  display: OneOf(CUSTOM_API_DISPLAYS, { default: "stats" }),
  fields: ItemList(CustomApiField, { maxItems: CUSTOM_API_FIELDS_MAX }),
  /** The rows of a list or table: `query` picks an array, each column's query reads one item. */
  list: Type.Optional(
    Type.Object({
      query: Query,
      columns: ItemList(CustomApiColumn, { maxItems: CUSTOM_API_COLUMNS_MAX }),
    }),
  ),
});
export type CustomApiConfig = Static<typeof CustomApiConfig>;
export type CustomApiField = CustomApiConfig["fields"][number];
export type CustomApiColumn = NonNullable<CustomApiConfig["list"]>["columns"][number];

/** What the server loads for a config: where from, and what to pick out of the answer. */
export interface CustomApiQuery {
  integrationId?: string;
  url?: string;
  path?: string;
  refreshSeconds: number;
  fields: CustomApiField[];
  list?: CustomApiConfig["list"];
}

/** A value as answered: a JSON scalar as the service sent it; objects and arrays as short JSON text. */
const Value = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

export const CustomApiDataSchema = Type.Object(
  {
    fields: Type.Array(
      Type.Object({
        id: Type.String(),
        label: Type.String(),
        value: Value,
        format: Type.String(),
        unit: Type.Union([Type.String(), Type.Null()]),
        /** Why the query gave nothing (a function given the wrong type), when it failed at run time. */
        error: Type.Optional(Type.String()),
      }),
    ),
    /** The list's items, each keyed by column id, at most CUSTOM_API_ROWS_MAX. */
    rows: Type.Optional(Type.Array(Type.Record(Type.String(), Value))),
    /** How many items the list query gave before the cut. */
    rowsTotal: Type.Optional(Type.Integer({ minimum: 0 })),
    /** Why the list query gave no rows (not a list, or it failed at run time). */
    listError: Type.Optional(Type.String()),
  },
  { description: "The values a Custom API widget's queries picked out of its service's answer" },
);
export type CustomApiData = Static<typeof CustomApiDataSchema>;
export type CustomApiValue = CustomApiData["fields"][number]["value"];

export const customApiWidget = defineWidgetType({
  type: "Custom API",
  server: true,
  config: CustomApiConfig,
  data: {
    kind: "service",
    publicRoute: "custom-api",
    visitorQuery: (config: CustomApiConfig): CustomApiQuery | null => {
      const { integrationId, url, path, refreshSeconds, fields, list } = config;
      // "" is the public view's stand-in for an address visitors may not see: the server reads it.
      if (!integrationId && url === undefined) return null;
      if (fields.length === 0 && !list) return null;
      return integrationId
        ? { integrationId, path, refreshSeconds, fields, list }
        : { url, refreshSeconds, fields, list };
    },
  },
  // A typed address may carry a token in its query string: visitors of a public dashboard get ""
  // in its place, and the server loads from the stored one (server/index.ts).
  publicConfig: (config) => (config.url ? { ...config, url: "" } : config),
  // One source at a time: an integration wins over an address left behind.
  refine: (config) => {
    if (!config.integrationId || config.url === undefined) return config;
    const { url: _left, ...rest } = config;
    return rest;
  },
});
