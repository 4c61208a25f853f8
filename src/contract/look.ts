/**
 * The rules of a dashboard's personal look (DESIGN section 13), shared by the server's schemas
 * and the web app's form. Plain constants: importing them costs the browser bundle no TypeBox.
 */

/** A colour: `#rgb` or `#rrggbb`, hex digits in either case. */
export const LOOK_ACCENT_PATTERN = "^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$";

/**
 * An absolute http or https URL without credentials (no `@` before the path), white space,
 * quotes, backslashes or angle brackets, so it sits safely inside CSS `url("…")`.
 */
export const LOOK_BACKGROUND_PATTERN =
  "^[hH][tT][tT][pP][sS]?://[^\\s/?#@\"'\\\\<>]+(?:[/?#][^\\s\"'\\\\<>]*)?$";
export const LOOK_BACKGROUND_MAX = 2048;

export interface LookValue {
  accent?: string;
  background?: string;
}

export const isLookAccent = (value: string) => new RegExp(LOOK_ACCENT_PATTERN, "u").test(value);
export const isLookBackground = (value: string) =>
  value.length <= LOOK_BACKGROUND_MAX && new RegExp(LOOK_BACKGROUND_PATTERN, "u").test(value);
