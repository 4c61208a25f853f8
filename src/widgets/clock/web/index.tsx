import { useTranslation } from "react-i18next";
import { t } from "../../../web/i18n/i18n";
import { useLocale } from "../../../web/i18n/use-locale";
import { useNow } from "../../../web/lib/use-now";
import { Field, TimeZoneSelect } from "../../../web/ui/fields";
import { defineWidget, type WidgetProps, type WidgetSettingsProps } from "../../../web/widget-kit/types";
import { type ClockConfig, clockWidget as contract } from "../contract";
import { clockFace } from "./logic";

function Clock({ config, settings }: WidgetProps<ClockConfig>) {
  const now = useNow(config.showSeconds ? 1000 : 10_000);
  const locale = useLocale();
  const face = clockFace(
    now,
    {
      timezone: config.timezone ?? settings.timezone,
      hourFormat: config.hourFormat ?? settings.hourFormat,
      showSeconds: config.showSeconds,
    },
    locale,
  );
  return (
    <div className="clock">
      <time className="clock-time" dateTime={now.toISOString()}>
        {face.time}
        {face.period && <span className="clock-period">{face.period}</span>}
      </time>
      <div className="clock-date">{face.date}</div>
      <div className="clock-zone">{face.zone}</div>
    </div>
  );
}

function TimeZoneSetting({ config, onChange, settings }: WidgetSettingsProps<ClockConfig>) {
  const { t } = useTranslation();
  return (
    <Field label={t("widgets.clock.timeZone")}>
      {(id) => (
        <TimeZoneSelect
          id={id}
          value={config.timezone}
          inheritLabel={t("widgets.clock.inheritTimeZone", { zone: settings.timezone.replaceAll("_", " ") })}
          onChange={(timezone) => onChange({ ...config, timezone })}
        />
      )}
    </Field>
  );
}

/** A fixed Monday, March 2, in the reader's words. */
const PREVIEW_DAY = new Date(Date.UTC(2026, 2, 2, 12));

function ClockPreview() {
  const locale = useLocale();
  const day = new Intl.DateTimeFormat(locale, {
    weekday: "long",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  }).format(PREVIEW_DAY);
  return (
    <div className="preview preview-clock">
      <strong>09:41</strong>
      <span>{day}</span>
    </div>
  );
}

export default defineWidget(contract, {
  group: "time",
  words: (t) => ({ name: t("widgets.clock.name"), description: t("widgets.clock.description") }),
  keywords: ["time", "date", "timezone", "world"],
  icon: "clock",
  defaultSize: { columns: 5, rows: 10 },
  minSize: { columns: 3, rows: 6 },
  title: (config) =>
    config.timezone
      ? t("widgets.clock.title", { zone: config.timezone.split("/").pop()?.replaceAll("_", " ") })
      : undefined,
  Component: Clock,
  settings: [
    TimeZoneSetting,
    // Getters: the form reads its words when it renders, in the language of that moment.
    {
      key: "hourFormat",
      get label() {
        return t("widgets.clock.hourFormat");
      },
      inherit: (settings) => t("widgets.clock.inheritHourFormat", { hours: settings.hourFormat }),
      get options() {
        return [
          ["24", t("widgets.clock.hours24")],
          ["12", t("widgets.clock.hours12")],
        ] as const;
      },
    },
    {
      key: "showSeconds",
      get label() {
        return t("widgets.clock.showSeconds");
      },
    },
  ],
  Preview: ClockPreview,
});
