import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { type BundledIcon, ICON_SLUG_PATTERN, type IconSearchResult } from "../../../contract/icons.js";

/**
 * The bundled icon set (Simple Icons, from the npm package) for bookmarks: search by name and one
 * icon's path data. Read from the package's files at first use, never at start-up: the index is
 * ~0.5 MB of JSON that an instance nobody picks icons on need not hold. The package stays in
 * node_modules (the server bundle does not inline it), so its files are found by resolution.
 */

interface Entry {
  slug: string;
  title: string;
  hex: string;
  /** Lower-case title, slug and aliases, for matching. */
  names: string[];
}

interface PackageEntry {
  slug: string;
  title: string;
  hex: string;
  aliases?: { aka?: string[]; dup?: { title: string }[]; loc?: Record<string, string> };
}

const SLUG = new RegExp(ICON_SLUG_PATTERN);
/** SVG path data only: commands, numbers, separators. Nothing else reaches a page. */
const PATH_DATA = /^[MmZzLlHhVvCcSsQqTtAa0-9eE.,+\-\s]+$/;
/** Parts of a home-network host name that name no app ("jellyfin.home.lan" → jellyfin). */
const NOT_A_NAME = new Set([
  "www",
  "home",
  "lan",
  "local",
  "localhost",
  "internal",
  "arpa",
  "localdomain",
  "app",
  "apps",
  "com",
  "org",
  "net",
  "io",
  "dev",
  "de",
  "uk",
  "co",
  "me",
  "http",
  "https",
  "server",
  "nas",
]);

/** Lower case, letters and digits only: "Pi-hole" and "pihole" compare equal. */
export function compact(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, "");
}

export function createIconSet(packageDir = defaultPackageDir()) {
  let index: Promise<Map<string, Entry>> | null = null;
  const load = () => {
    index ??= readFile(path.join(packageDir, "data/simple-icons.json"), "utf8").then((text) => {
      const entries = JSON.parse(text) as PackageEntry[];
      const map = new Map<string, Entry>();
      for (const e of entries) {
        const aliases = [...(e.aliases?.aka ?? []), ...(e.aliases?.dup ?? []).map((d) => d.title)];
        map.set(e.slug, {
          slug: e.slug,
          title: e.title,
          hex: e.hex.toUpperCase(),
          names: [e.title, e.slug, ...aliases].map((n) => n.toLowerCase()),
        });
      }
      return map;
    });
    index.catch(() => {
      index = null;
    });
    return index;
  };

  const paths = new Map<string, string>();
  const pathOf = async (slug: string): Promise<string | null> => {
    const known = paths.get(slug);
    if (known) return known;
    const svg = await readFile(path.join(packageDir, "icons", `${slug}.svg`), "utf8").catch(() => null);
    const d = svg ? /<path\b[^>]*\bd="([^"]+)"/.exec(svg)?.[1] : undefined;
    if (!d || !PATH_DATA.test(d)) return null;
    // Bounded by the set's size (~3,500 icons of ~1 KB): only icons someone showed get here.
    paths.set(slug, d);
    return d;
  };

  const toIcon = async (entry: Entry): Promise<BundledIcon | null> => {
    const d = await pathOf(entry.slug);
    return d ? { id: `si:${entry.slug}`, title: entry.title, hex: entry.hex, path: d } : null;
  };

  /** The icon the set has for a bookmark's host and title, if any: title first, then host labels. */
  const suggest = (map: Map<string, Entry>, hint: string): Entry | null => {
    const [host = "", ...titleWords] = hint.trim().split(/\s+/);
    const candidates = [
      compact(titleWords.join("")),
      ...host
        .toLowerCase()
        .replace(/:\d+$/, "")
        .split(/[.-]/)
        .filter((label) => label && !NOT_A_NAME.has(label) && !/^\d+$/.test(label))
        .map(compact),
      ...titleWords.map(compact),
    ];
    for (const candidate of candidates) {
      if (candidate.length < 2) continue;
      const hit = map.get(candidate) ?? [...map.values()].find((e) => compact(e.title) === candidate);
      if (hit) return hit;
    }
    return null;
  };

  return {
    /** One icon by its slug, or null when the set has none of that name. */
    async get(slug: string): Promise<BundledIcon | null> {
      if (!SLUG.test(slug)) return null;
      const entry = (await load()).get(slug);
      return entry ? toIcon(entry) : null;
    },

    /**
     * Icons whose name matches `query` (exact, then prefix, then word prefix, then anywhere),
     * with the icon suggested for `hint` ("<host> <title>") first when it matches too.
     */
    async search(query: string, hint: string, limit: number): Promise<IconSearchResult> {
      const map = await load();
      const q = query.trim().toLowerCase();
      const qc = compact(q);
      const rank = (e: Entry): number => {
        if (!q) return -1;
        if (e.slug === qc || e.names.includes(q)) return 0;
        if (e.slug.startsWith(qc) || e.names.some((n) => n.startsWith(q))) return 1;
        if (e.names.some((n) => n.split(/[\s.-]+/).some((w) => w.startsWith(q)))) return 2;
        if ((qc && e.slug.includes(qc)) || e.names.some((n) => n.includes(q))) return 3;
        return -1;
      };
      const suggested = hint ? suggest(map, hint) : null;
      const ranked = q
        ? [...map.values()]
            .map((entry) => ({ entry, score: rank(entry) }))
            .filter((r) => r.score >= 0)
            .sort(
              (a, b) =>
                a.score - b.score ||
                a.entry.title.length - b.entry.title.length ||
                a.entry.title.localeCompare(b.entry.title),
            )
            .map((r) => r.entry)
        : [];
      const first = suggested && (!q || rank(suggested) >= 0) ? suggested : null;
      const entries = [...(first ? [first] : []), ...ranked.filter((e) => e !== first)].slice(0, limit);
      const icons = (await Promise.all(entries.map(toIcon))).filter((i): i is BundledIcon => i !== null);
      return { icons, suggested: first ? `si:${first.slug}` : null };
    },
  };
}

export type IconSet = ReturnType<typeof createIconSet>;

function defaultPackageDir(): string {
  // Resolved from this file at run time, from src/ in development and from dist/server when built.
  // (The package exports its index as "icons.json", at data/simple-icons.json.)
  const index = createRequire(import.meta.url).resolve("simple-icons/icons.json");
  return path.dirname(path.dirname(index));
}
