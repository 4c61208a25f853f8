/** Exact widget type values of the spec, case as written. */
export const WIDGET_TYPES = [
  "Bookmark",
  "Clock",
  "Countdown",
  "Crypto",
  "Editor",
  "Frame",
  "Codehost Heatmap",
  "Codehost",
  "Inbox",
  "Kanban",
  "Meetings",
  "Todo",
  "Weather",
] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];

/** Geometry bounds (pixels) decided in DESIGN section 2. */
export const GEOMETRY_MAX = 100_000;
/** Serialized size limit for widget config objects. */
export const CONFIG_MAX_BYTES = 256 * 1024;
