import type { CSSProperties } from "react";
import { isLookAccent, isLookBackground, type LookValue } from "../../contract/look";

/** `#rgb` or `#rrggbb` as 0–255 channels, or null when it is not such a colour. */
export function parseHex(hex: string): [number, number, number] | null {
  if (!isLookAccent(hex)) return null;
  const digits = hex.slice(1);
  const full =
    digits.length === 3
      ? digits
          .split("")
          .map((d) => d + d)
          .join("")
      : digits;
  return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

/** WCAG 2.2 relative luminance of an sRGB colour, 0 (black) to 1 (white). */
export function relativeLuminance([r, g, b]: readonly [number, number, number]): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The WCAG contrast ratio of two luminances, 1 to 21. */
export function contrastRatio(a: number, b: number): number {
  const [light, dark] = a > b ? [a, b] : [b, a];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The text colour to put on an accent: black or white, whichever contrasts more (for any colour
 * one of them reaches at least 4.58:1). Null when the accent is not a colour.
 */
export function readableTextOn(accent: string): "#000000" | "#ffffff" | null {
  const rgb = parseHex(accent);
  if (!rgb) return null;
  const l = relativeLuminance(rgb);
  return contrastRatio(l, 0) >= contrastRatio(l, 1) ? "#000000" : "#ffffff";
}

/** The page backgrounds the accent must read on as text (--bg light, --surface-3 dark). */
export const LIGHT_PAGE = "#f3f4f7";
export const DARK_PAGE = "#232835";
/** WCAG AA for normal text: the accent is also a text colour (links, active tabs, icons). */
const TEXT_CONTRAST = 4.5;

const toHex = (rgb: readonly number[]) =>
  `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;

/**
 * The accent as it can be used as text on a page of the given colour: itself when it already
 * reaches 4.5:1 there, else mixed toward black (light page) or white (dark page) only as far as
 * needed. A pale yellow stays yellow in dark theme and turns to a readable ochre in light theme.
 */
export function legibleOn(accent: string, page: string): string {
  const rgb = parseHex(accent);
  const pageRgb = parseHex(page);
  if (!rgb || !pageRgb) return accent;
  const pageL = relativeLuminance(pageRgb);
  const toward = pageL > 0.18 ? [0, 0, 0] : [255, 255, 255];
  for (let step = 0; step <= 40; step++) {
    const t = step / 40;
    const mixed = rgb.map((c, i) => c * (1 - t) + toward[i]! * t) as [number, number, number];
    const rounded = mixed.map(Math.round) as [number, number, number];
    if (contrastRatio(relativeLuminance(rounded), pageL) >= TEXT_CONTRAST)
      return step === 0 ? accent : toHex(rounded);
  }
  return toHex(toward);
}

/**
 * What a dashboard's root element carries for its look: the accent for each theme, legible as
 * text there (legibleOn), with a readable text colour on it (readableTextOn), the background image as `--look-background`,
 * and data attributes the stylesheet keys on (opaque surfaces, a scrim behind the title). Values
 * that are not a colour or an http(s) URL are left out, so a bad stored value shows the plain look.
 */
export function lookAttributes(look: LookValue | undefined | null): {
  style?: CSSProperties;
  "data-look-accent"?: "";
  "data-look-background"?: "";
} {
  const style: Record<string, string> = {};
  const out: ReturnType<typeof lookAttributes> = {};
  const accent = look?.accent;
  const contrast = accent ? readableTextOn(accent) : null;
  if (accent && contrast) {
    // One accent per theme, each legible as text there; the stylesheet picks by data-theme.
    for (const [theme, page] of [
      ["light", LIGHT_PAGE],
      ["dark", DARK_PAGE],
    ] as const) {
      const legible = legibleOn(accent, page);
      style[`--look-accent-${theme}`] = legible;
      style[`--look-accent-${theme}-contrast`] = readableTextOn(legible) ?? contrast;
    }
    out["data-look-accent"] = "";
  }
  const background = look?.background;
  if (background && isLookBackground(background)) {
    // The pattern admits no quote, backslash or white space, so the URL cannot leave url("…").
    style["--look-background"] = `url("${background}")`;
    out["data-look-background"] = "";
  }
  if (Object.keys(style).length > 0) out.style = style as CSSProperties;
  return out;
}
