import { useTranslation } from "react-i18next";
import { useLocale } from "../../../web/i18n/use-locale";
import { useNow } from "../../../web/lib/use-now";
import type { LinkStatusResult } from "../contract";
import { stateWord, statusDetail } from "./status-words";

/**
 * A link's status dot on its icon's corner, like an app tile's: green and round when it answers,
 * red and square when not, a hollow ring when unknown. Hidden from screen readers, which hear
 * `StatusWords` at the end of the link's name instead; the details are its tooltip.
 */
export function StatusDot({ status }: { status: LinkStatusResult }) {
  const locale = useLocale();
  const now = useNow(30_000).getTime();
  return (
    <span
      className={`bookmark-status is-${status.state}`}
      data-state={status.state}
      title={statusDetail(status, now, locale)}
      aria-hidden="true"
    />
  );
}

/** The dot in words, last in the link's name: "Jellyfin jellyfin.lan, status: up". */
export function StatusWords({ status }: { status: LinkStatusResult }) {
  const { t } = useTranslation();
  return (
    <span className="visually-hidden">
      {t("widgets.bookmark.status.spoken", { state: stateWord(status.state) })}
    </span>
  );
}
