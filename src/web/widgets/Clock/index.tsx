import { type ClockConfig, clockWidget as contract } from "../../../contract/widgets/clock";
import { useNow } from "../../lib/use-now";
import { Field, TimeZoneSelect } from "../../ui/fields";
import { defineWidget, type WidgetProps, type WidgetSettingsProps } from "../types";
import { clockFace } from "./logic";

function Clock({ config, settings }: WidgetProps<ClockConfig>) {
  const now = useNow(config.showSeconds ? 1000 : 10_000);
  const face = clockFace(now, {
    timezone: config.timezone ?? settings.timezone,
    hourFormat: config.hourFormat ?? settings.hourFormat,
    showSeconds: config.showSeconds,
  });
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
  return (
    <Field label="Time zone">
      {(id) => (
        <TimeZoneSelect
          id={id}
          value={config.timezone}
          inheritLabel={`Same as app settings (${settings.timezone.replaceAll("_", " ")})`}
          onChange={(timezone) => onChange({ ...config, timezone })}
        />
      )}
    </Field>
  );
}

function ClockPreview() {
  return (
    <div className="preview preview-clock">
      <strong>09:41</strong>
      <span>Monday, March 2</span>
    </div>
  );
}

export const clockWidget = defineWidget(contract, {
  name: "Clock",
  description: "The time and date in any time zone, 12 or 24 hours.",
  keywords: ["time", "date", "timezone", "world"],
  icon: "clock",
  defaultSize: { columns: 5, rows: 10 },
  minSize: { columns: 3, rows: 6 },
  title: (config) =>
    config.timezone ? `Clock · ${config.timezone.split("/").pop()?.replaceAll("_", " ")}` : undefined,
  Component: Clock,
  settings: [
    TimeZoneSetting,
    {
      key: "hourFormat",
      label: "Hour format",
      inherit: (settings) => `Same as app settings (${settings.hourFormat} h)`,
      options: [
        ["24", "24 hours (17:30)"],
        ["12", "12 hours (5:30 PM)"],
      ],
    },
    { key: "showSeconds", label: "Show seconds" },
  ],
  Preview: ClockPreview,
});
