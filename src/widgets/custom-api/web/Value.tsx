import { useTranslation } from "react-i18next";
import { useLocale } from "../../../web/i18n/use-locale";
import type { CustomApiValue } from "../contract";
import { exactInstant, formatValue, instantOf, type StatusTone, statusTone } from "./format";

/** A status as a coloured dot with its words: the words carry it, the colour only repeats it. */
function StatusValue({ value, unit }: { value: CustomApiValue; unit?: string | null }) {
  const { t } = useTranslation();
  const tone = statusTone(value);
  const words: Record<StatusTone, string> = {
    good: t("widgets.customAPI.status.good"),
    warning: t("widgets.customAPI.status.warning"),
    bad: t("widgets.customAPI.status.bad"),
    unknown: t("widgets.customAPI.status.unknown"),
  };
  // A text says itself ("running"); a flag or a code is named by its tone.
  const shown =
    typeof value === "string" && value.trim() !== "" && !/^\d+$/.test(value.trim()) ? value : words[tone];
  return (
    <span className={`capi-status is-${tone}`}>
      <span className="capi-dot" aria-hidden="true" />
      {shown !== words[tone] && <span className="visually-hidden">{words[tone]}: </span>}
      {shown}
      {typeof value === "number" && <span className="capi-code"> ({value})</span>}
      {unit ? ` ${unit}` : ""}
    </span>
  );
}

/** One picked value in its format; dates say the exact time on hover. */
export function FormattedValue({
  value,
  format,
  unit,
  now,
}: {
  value: CustomApiValue;
  format: string;
  unit?: string | null;
  now: number;
}) {
  const locale = useLocale();
  if (format === "status") return <StatusValue value={value} unit={unit} />;
  const text = formatValue(value, format, { locale, now, unit });
  const at = format === "date" ? instantOf(value) : null;
  if (at !== null)
    return (
      <time dateTime={new Date(at).toISOString()} title={exactInstant(at, locale)}>
        {text}
      </time>
    );
  return <>{text}</>;
}
