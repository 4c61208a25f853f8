import { useTranslation } from "react-i18next";
import { t } from "../../../web/i18n/i18n";
import { useLocale } from "../../../web/i18n/use-locale";
import type { AppSettings } from "../../../web/lib/app-settings";
import type { Forecast } from "../../../web/lib/data-api";
import { useNow } from "../../../web/lib/use-now";
import { Icon } from "../../../web/ui/icons";
import { DataFrame } from "../../../web/widget-kit/data/DataFrame";
import { dayLabel, formatHour, formatTime, weekdayShort } from "../../../web/widget-kit/data/format";
import { forecastRequest, useDataSource } from "../../../web/widget-kit/data/source";
import { useWidgetData } from "../../../web/widget-kit/data/useWidgetData";
import { defineWidget, type WidgetProps } from "../../../web/widget-kit/types";
import { WidgetEmpty } from "../../../web/widget-kit/WidgetEmpty";
import { weatherWidget as contract, type WeatherConfig, type WeatherLocation } from "../contract";
import { LocationPicker } from "./LocationPicker";
import { describeWeather, nextHours, temperature, weekRange } from "./logic";
import { PlaceSetting } from "./Settings";
import { WeatherIcon } from "./WeatherIcon";

function ForecastView({
  forecast,
  location,
  settings,
}: {
  forecast: Forecast;
  location: WeatherLocation;
  settings: AppSettings;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const now = useNow(60_000);
  const temp = (value: number) => temperature(value, locale);
  const number = (value: number) => new Intl.NumberFormat(locale).format(Math.round(value));
  const current = describeWeather(forecast.current.weatherCode);
  const time = { timezone: settings.timezone, hourFormat: settings.hourFormat };
  const hours = nextHours(forecast, now.getTime());
  const range = weekRange(forecast.daily);
  const today = forecast.daily[0]?.date ?? "";
  const details = [
    forecast.current.apparentTemperature !== null &&
      t("widgets.weather.feelsLike", { temperature: temp(forecast.current.apparentTemperature) }),
    forecast.current.humidity !== null &&
      t("widgets.weather.humidity", { percent: number(forecast.current.humidity) }),
    forecast.current.windSpeed !== null &&
      t("widgets.weather.wind", {
        speed: number(forecast.current.windSpeed),
        unit: forecast.units.windSpeed,
      }),
  ].filter(Boolean);

  return (
    <div className="weather">
      <section className="weather-now" aria-label={t("widgets.weather.now")}>
        <WeatherIcon kind={current.kind} isDay={forecast.current.isDay} size={46} />
        <div className="weather-temp">
          {temp(forecast.current.temperature)}
          <span className="weather-unit">{forecast.units.temperature.replace("°", "")}</span>
        </div>
        <div className="weather-summary">
          <strong className="weather-place">{location.name}</strong>
          <span>{current.label}</span>
          <span className="weather-details">{details.join(" · ")}</span>
        </div>
      </section>
      {hours.length > 0 && (
        <ol className="weather-hours" aria-label={t("widgets.weather.nextHours")}>
          {hours.map((h, i) => {
            const d = describeWeather(h.weatherCode);
            return (
              <li
                key={h.time}
                title={t("widgets.weather.at", {
                  time: formatTime(h.time, time, locale),
                  condition: d.label,
                })}
              >
                <span className="weather-hour">
                  {i === 0 ? t("widgets.weather.now") : formatHour(h.time, time, locale)}
                </span>
                <WeatherIcon kind={d.kind} size={22} label={d.label} />
                <strong>{temp(h.temperature)}</strong>
                {h.precipitationProbability !== null && h.precipitationProbability >= 10 && (
                  <span className="weather-rain">
                    {t("widgets.weather.rainChance", { percent: number(h.precipitationProbability) })}
                  </span>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {forecast.daily.length > 0 && (
        <ol className="weather-days" aria-label={t("widgets.weather.nextDays")}>
          {forecast.daily.map((day) => {
            const d = describeWeather(day.weatherCode);
            const left = ((day.temperatureMin - range.min) / (range.max - range.min)) * 100;
            const width = ((day.temperatureMax - day.temperatureMin) / (range.max - range.min)) * 100;
            return (
              <li key={day.date}>
                <span className="weather-day">
                  {day.date === today ? t("widgets.data.day.today") : weekdayShort(day.date, locale)}
                </span>
                <WeatherIcon kind={d.kind} size={20} label={d.label} />
                <span className="weather-rain">
                  {day.precipitationProbability !== null && day.precipitationProbability >= 10
                    ? t("widgets.weather.rainChance", { percent: number(day.precipitationProbability) })
                    : ""}
                </span>
                <span className="weather-low">{temp(day.temperatureMin)}</span>
                <span className="weather-range" aria-hidden="true">
                  <span style={{ left: `${left}%`, width: `${Math.max(width, 4)}%` }} />
                </span>
                <span className="weather-high">{temp(day.temperatureMax)}</span>
                <span className="visually-hidden">
                  {t("widgets.weather.at", { time: dayLabel(day.date, today, locale), condition: d.label })}
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}

function WeatherWidget({ widget, config, update, settings, readOnly }: WidgetProps<WeatherConfig>) {
  const { t } = useTranslation();
  const { location, unit } = config;
  const source = useDataSource();
  const query = useWidgetData({
    // Disabled below without a location; the placeholder only keeps the hook order fixed.
    ...forecastRequest(source, widget.id, location ?? { latitude: 0, longitude: 0 }, unit),
    refreshMs: 15 * 60_000,
    enabled: location !== undefined,
  });
  if (!location) {
    if (readOnly) return <WidgetEmpty text={t("widgets.weather.noForecast")} />;
    return (
      <div className="weather-setup">
        <p>
          <Icon name="mapPin" size={15} /> {t("widgets.weather.setup")}
        </p>
        <LocationPicker onPick={(picked) => update((c) => ({ ...c, location: picked }))} />
      </div>
    );
  }
  return (
    <DataFrame query={query} upstream="weather" label={t("widgets.weather.dataLabel")} readOnly={readOnly}>
      {(forecast) => <ForecastView forecast={forecast} location={location} settings={settings} />}
    </DataFrame>
  );
}

function WeatherPreview() {
  const { t } = useTranslation();
  return (
    <div className="preview preview-weather">
      <WeatherIcon kind="partly" size={40} />
      <strong>18°</strong>
      <span>{t("widgets.weather.condition.partlyCloudy")}</span>
    </div>
  );
}

export default defineWidget(contract, {
  group: "data",
  words: (t) => ({ name: t("widgets.weather.name"), description: t("widgets.weather.description") }),
  keywords: ["forecast", "temperature", "rain", "sun", "climate"],
  icon: "cloud",
  defaultSize: { columns: 6, rows: 19 },
  minSize: { columns: 4, rows: 7 },
  title: (config) =>
    config.location ? t("widgets.weather.title", { place: config.location.name }) : undefined,
  Component: WeatherWidget,
  settings: [
    PlaceSetting,
    {
      key: "unit",
      label: () => t("widgets.weather.unit.label"),
      radio: true,
      options: [
        ["celsius", () => t("widgets.weather.unit.celsius")],
        ["fahrenheit", () => t("widgets.weather.unit.fahrenheit")],
      ],
    },
  ],
  Preview: WeatherPreview,
});
