/** Temperature units the weather data can be shown in; kept apart so the web app imports no schema code. */
export const TEMPERATURE_UNITS = ["celsius", "fahrenheit"] as const;
export type TemperatureUnit = (typeof TEMPERATURE_UNITS)[number];
