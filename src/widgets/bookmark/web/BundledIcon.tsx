import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { BundledIcon } from "../../../contract/icons";
import { dataApi } from "../../../web/lib/data-api";
import { glyphColour } from "./logic";

/**
 * A bundled icon drawn from its path data in our own <svg> (never SVG markup from elsewhere):
 * the glyph on a tile of the brand's colour, legible in both themes.
 */
export function IconGlyph({ icon, size = 22 }: { icon: Pick<BundledIcon, "hex" | "path">; size?: number }) {
  return (
    <span
      className="bookmark-glyph"
      style={{ background: `#${icon.hex}`, color: glyphColour(icon.hex), width: size, height: size }}
      aria-hidden="true"
    >
      <svg
        viewBox="0 0 24 24"
        width={Math.round(size * 0.64)}
        height={Math.round(size * 0.64)}
        focusable="false"
        aria-hidden="true"
      >
        <path d={icon.path} fill="currentColor" />
      </svg>
    </span>
  );
}

/** One icon of the set, asked of our server only when something shows it. */
export function useBundledIcon(slug: string | null) {
  return useQuery({
    queryKey: ["icons", "bundled", slug],
    queryFn: () => dataApi.icons.get(slug ?? ""),
    enabled: slug !== null,
    // The set only changes with a server upgrade; the browser's cache keeps it for a week too.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** A bookmark's bundled icon; `fallback` (the favicon) when the set lacks it. */
export function BundledIconTile({ slug, fallback }: { slug: string; fallback: ReactNode }) {
  const icon = useBundledIcon(slug);
  if (icon.isError) return <>{fallback}</>;
  if (!icon.data) return <span className="bookmark-glyph is-loading" aria-hidden="true" />;
  return <IconGlyph icon={icon.data} />;
}
