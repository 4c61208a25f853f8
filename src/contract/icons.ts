import type { Static } from "@sinclair/typebox";
import { Type } from "./typebox.js";

/**
 * The bundled icon set bookmarks can show instead of their site's favicon: Simple Icons (brand
 * logos as SVG path data, CC0), served by our server from the npm package, so a browser never
 * asks a third party for an icon. An icon is named `si:<slug>` ("si:jellyfin"): the prefix leaves
 * room for another set later without renaming stored bookmarks.
 */

/** Simple Icons slugs are lower-case letters, digits and the odd underscore ("graphite_editor"). */
export const ICON_SLUG_PATTERN = "^[a-z0-9_]{1,40}$";
export const ICON_ID_PATTERN = "^si:[a-z0-9_]{1,40}$";

export const BundledIcon = Type.Object({
  id: Type.String({
    pattern: ICON_ID_PATTERN,
    description: 'The name a bookmark stores, e.g. "si:jellyfin"',
  }),
  title: Type.String({ description: "The brand's name" }),
  hex: Type.String({ pattern: "^[0-9A-F]{6}$", description: "The brand's colour, without #" }),
  path: Type.String({ description: "SVG path data on a 24×24 view box" }),
});
export type BundledIcon = Static<typeof BundledIcon>;

export const IconSearchResult = Type.Object({
  icons: Type.Array(BundledIcon),
  /** The id of the icon suggested for the hint, when there is one (it is then `icons[0]`). */
  suggested: Type.Union([Type.String(), Type.Null()]),
});
export type IconSearchResult = Static<typeof IconSearchResult>;

/** "si:jellyfin" → "jellyfin"; null for anything that is not a bundled icon's name. */
export function iconSlug(id: string): string | null {
  return new RegExp(ICON_ID_PATTERN).test(id) ? id.slice(3) : null;
}
