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

/**
 * What a dashboard's root element carries for its look: the accent as the app's accent custom
 * properties (with a readable text colour on it), the background image as `--look-background`,
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
    style["--accent"] = accent;
    style["--accent-contrast"] = contrast;
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
