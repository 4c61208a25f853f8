import { useNow } from "../../lib/use-now";
import { Field, TimeZoneSelect } from "../shared/fields";
import { defineWidget, type WidgetProps, type WidgetSettingsProps } from "../types";
import { type ClockConfig, clockFace, defaultClockConfig, parseClockConfig } from "./config";

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

function ClockSettings({ config, onChange, settings }: WidgetSettingsProps<ClockConfig>) {
  return (
    <>
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
      <Field label="Hour format">
        {(id) => (
          <select
            id={id}
            value={config.hourFormat ?? ""}
            onChange={(e) =>
              onChange({ ...config, hourFormat: (e.target.value || undefined) as ClockConfig["hourFormat"] })
            }
          >
            <option value="">Same as app settings ({settings.hourFormat} h)</option>
            <option value="24">24 hours (17:30)</option>
            <option value="12">12 hours (5:30 PM)</option>
          </select>
        )}
      </Field>
      <label className="checkbox-row">
        <input
          type="checkbox"
          checked={config.showSeconds}
          onChange={(e) => onChange({ ...config, showSeconds: e.target.checked })}
        />
        Show seconds
      </label>
    </>
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

export const clockWidget = defineWidget<ClockConfig>({
  type: "Clock",
  name: "Clock",
  description: "The time and date in any time zone, 12 or 24 hours.",
  keywords: ["time", "date", "timezone", "world"],
  icon: "clock",
  defaultSize: { width: 300, height: 200 },
  minSize: { width: 180, height: 120 },
  defaultConfig: defaultClockConfig,
  parseConfig: parseClockConfig,
  title: (config) =>
    config.timezone ? `Clock · ${config.timezone.split("/").pop()?.replaceAll("_", " ")}` : undefined,
  Component: Clock,
  Settings: ClockSettings,
  Preview: ClockPreview,
});
