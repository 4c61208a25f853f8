import { Icon } from "../../ui/icons";
import type { WidgetSettingsProps } from "../types";
import type { WeatherConfig } from "./config";
import { LocationPicker } from "./LocationPicker";

export function WeatherSettings({ config, onChange }: WidgetSettingsProps<WeatherConfig>) {
  return (
    <>
      <div className="field">
        <span className="field-label">Place</span>
        <p className="weather-current-place">
          <Icon name="mapPin" size={14} />
          {config.location ? config.location.name : "None yet"}
        </p>
        <LocationPicker onPick={(location) => onChange({ ...config, location })} />
      </div>
      <fieldset className="field radio-row">
        <legend className="field-label">Temperature</legend>
        {(
          [
            ["celsius", "Celsius (°C)"],
            ["fahrenheit", "Fahrenheit (°F)"],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="checkbox-row">
            <input
              type="radio"
              name="weather-unit"
              value={value}
              checked={config.unit === value}
              onChange={() => onChange({ ...config, unit: value })}
            />
            {label}
          </label>
        ))}
      </fieldset>
    </>
  );
}
