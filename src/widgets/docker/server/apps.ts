import { ICON_SLUG_PATTERN } from "../../../contract/icons.js";
import { httpUrl } from "../../../contract/widget-kit/fields.js";
import type { DockerApp } from "../contract.js";

const TEXT_MAX = 100;
const slugExpression = new RegExp(ICON_SLUG_PATTERN);

const text = (value: string | undefined, max = TEXT_MAX) => {
  const trimmed = value?.replace(/\s+/g, " ").trim();
  return trimmed ? trimmed.slice(0, max) : null;
};

/**
 * An icon label as people write it, as a bundled icon's slug: Tessera's `si:jellyfin`,
 * Homepage's `si-jellyfin` and `jellyfin.png` (a dashboard-icons file name), or `Jellyfin`.
 * URLs and Material Design names (`mdi-…`) have no bundled icon: the tile shows the initial.
 */
export function iconSlugOf(label: string | undefined): string | null {
  const value = label?.trim().toLowerCase();
  if (!value || value.includes("/") || value.startsWith("mdi-")) return null;
  const slug = value
    .replace(/^si[:-]/, "")
    .replace(/\.(png|svg|webp|jpe?g|ico)$/, "")
    .replaceAll("-", "");
  return slugExpression.test(slug) ? slug : null;
}

/**
 * The app a container's labels describe: Tessera's own (`tessera.name`, `tessera.url`,
 * `tessera.icon`, `tessera.group`, `tessera.description`) or, key by key where those are
 * absent, Homepage's (`homepage.name`, `homepage.href`, …), which many compose files already
 * carry. Null when it names no app. A URL that is not http(s) (`javascript:`) is dropped.
 */
export function appOf(labels: Readonly<Record<string, string>> | null | undefined): DockerApp | null {
  if (!labels) return null;
  const pick = (own: string, homepage: string) => labels[`tessera.${own}`] ?? labels[`homepage.${homepage}`];
  const name = text(pick("name", "name"));
  const rawUrl = text(pick("url", "href"), 2048);
  const url = rawUrl ? (httpUrl(rawUrl) ?? null) : null;
  if (!name && !url) return null;
  return {
    name: name ?? new URL(url as string).host,
    url,
    icon: iconSlugOf(pick("icon", "icon")),
    group: text(pick("group", "group")),
    description: text(pick("description", "description"), 200),
  };
}
