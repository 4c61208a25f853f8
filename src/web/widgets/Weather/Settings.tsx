import type { WeatherConfig } from "../../../contract/widgets/weather";
import { Icon } from "../../ui/icons";
import type { WidgetSettingsProps } from "../types";
import { LocationPicker } from "./LocationPicker";

/** The place: found by name or the browser's position. */
export function PlaceSetting({ config, onChange }: WidgetSettingsProps<WeatherConfig>) {
  return (
    <div className="field">
      <span className="field-label">Place</span>
      <p className="weather-current-place">
        <Icon name="mapPin" size={14} />
        {config.location ? config.location.name : "None yet"}
      </p>
      <LocationPicker onPick={(location) => onChange({ ...config, location })} />
    </div>
  );
}
