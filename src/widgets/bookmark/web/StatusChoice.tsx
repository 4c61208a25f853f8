import { useTranslation } from "react-i18next";
import type { LinkStatus } from "../contract";
import { type NameableCheck, useNameableChecks } from "./status-api";

const OFF = "";
const SELF = "self";
const checkValue = (ref: { widgetId: string; checkId: string }) => `check:${ref.widgetId}:${ref.checkId}`;

/** What a choice's value stands for: no dot, the link's own address, or one of the person's checks. */
function statusOf(value: string): LinkStatus | undefined {
  if (value === SELF) return "self";
  const match = /^check:([^:]+):(.+)$/.exec(value);
  return match ? { widgetId: match[1]!, checkId: match[2]! } : undefined;
}

/** The checks by dashboard, in the order the server lists them. */
function byDashboard(checks: readonly NameableCheck[]) {
  const groups: { id: string; name: string; checks: NameableCheck[] }[] = [];
  for (const check of checks) {
    const last = groups.at(-1);
    if (last && last.id === check.dashboardId) last.checks.push(check);
    else groups.push({ id: check.dashboardId, name: check.dashboardName, checks: [check] });
  }
  return groups;
}

/**
 * A link's status dot: none, its own address checked, or one of the person's Status checks (by
 * dashboard). A saved check that is no longer offered stays chosen, named as gone.
 */
export default function StatusChoice({
  name,
  full,
  value,
  onChange,
}: {
  /** The link's name, for the control's label. */
  name: string;
  /** Other links already have as many dots as a widget checks: this one may not add another. */
  full: boolean;
  value: LinkStatus | undefined;
  onChange(next: LinkStatus | undefined): void;
}) {
  const { t } = useTranslation();
  const checks = useNameableChecks();
  const current = value === undefined ? OFF : value === "self" ? SELF : checkValue(value);
  const known = (checks.data ?? []).some((c) => checkValue(c) === current);
  return (
    <select
      className="bookmark-status-choice"
      aria-label={t("widgets.bookmark.status.choice", { name })}
      value={current}
      onChange={(e) => onChange(statusOf(e.target.value))}
    >
      <option value={OFF}>{t("widgets.bookmark.status.off")}</option>
      <option value={SELF} disabled={full}>
        {t("widgets.bookmark.status.self")}
      </option>
      {current.startsWith("check:") && !known && (
        <option value={current}>
          {checks.isPending
            ? t("widgets.bookmark.status.loadingChecks")
            : t("widgets.bookmark.status.goneCheck")}
        </option>
      )}
      {byDashboard(checks.data ?? []).map((group) => (
        <optgroup key={group.id} label={t("widgets.bookmark.status.checksOn", { dashboard: group.name })}>
          {group.checks.map((check) => (
            <option key={checkValue(check)} value={checkValue(check)} disabled={full}>
              {t("widgets.bookmark.status.useCheck", { name: check.name })}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}
