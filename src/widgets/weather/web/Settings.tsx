import { useTranslation } from "react-i18next";
import { Icon } from "../../../web/ui/icons";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import type { WeatherConfig } from "../contract";
import { LocationPicker } from "./LocationPicker";

/** The place: found by name or the browser's position. */
export function PlaceSetting({ config, onChange }: WidgetSettingsProps<WeatherConfig>) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <span className="field-label">{t("widgets.weather.place")}</span>
      <p className="weather-current-place">
        <Icon name="mapPin" size={14} />
        {config.location ? config.location.name : t("widgets.weather.noPlaceYet")}
      </p>
      <LocationPicker onPick={(location) => onChange({ ...config, location })} />
    </div>
  );
}
