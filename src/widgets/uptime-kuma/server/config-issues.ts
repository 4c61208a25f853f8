import { isRecord } from "../../../contract/widget-kit/parse.js";
import type { ConfigIssue } from "../../../server/widgets/kit.js";
import { KUMA_SLUG_MAX, KUMA_SLUG_PATTERN } from "../contract.js";

const SLUG = new RegExp(KUMA_SLUG_PATTERN);

/**
 * A slug Uptime Kuma cannot have would be dropped by the parser, and the widget would show every
 * monitor from the metrics instead of the page asked for: the writer is told (400) instead.
 */
export function uptimeKumaConfigIssues(raw: unknown): ConfigIssue[] {
  if (!isRecord(raw) || raw.slug === undefined) return [];
  const slug = typeof raw.slug === "string" ? raw.slug.trim().toLowerCase() : null;
  if (slug !== null && slug.length <= KUMA_SLUG_MAX && SLUG.test(slug)) return [];
  return [
    {
      path: "/slug",
      message: "must be a status page's slug as Uptime Kuma makes them: letters, digits and single hyphens",
    },
  ];
}
