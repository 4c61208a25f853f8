import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { coarseCoordinate } from "../../../contract/coordinates";
import { dataApi } from "../../../web/lib/data-api";
import { useDebounced } from "../../../web/lib/use-debounced";
import { Icon } from "../../../web/ui/icons";
import { describeDataError, type Upstream } from "../../../web/widget-kit/data/errors";
import { retryData } from "../../../web/widget-kit/data/useWidgetData";
import { SearchInput } from "../../../web/widget-kit/SearchInput";
import type { WeatherLocation } from "../contract";
import { placeLabel } from "./logic";

/** Places come from Open-Meteo's geocoding: a failed search names it, as the forecast does. */
const PLACES: Upstream = "weather";

/** Find a place by name (geocoding through our server) or use the browser's position. */
export function LocationPicker({ onPick }: { onPick(location: WeatherLocation): void }) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [geo, setGeo] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const listId = useId();
  const q = useDebounced(text.trim(), 300);
  const results = useQuery({
    queryKey: ["weather", "search", q.toLowerCase()],
    queryFn: () => dataApi.weather.search(q),
    enabled: q.length >= 2,
    staleTime: 60 * 60_000,
    retry: retryData,
  });

  const locate = () => {
    if (!("geolocation" in navigator)) {
      setGeo({ busy: false, error: t("widgets.weather.locate.unsupported") });
      return;
    }
    setGeo({ busy: true, error: null });
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setGeo({ busy: false, error: null });
        onPick({
          name: t("widgets.weather.locate.current"),
          // About a kilometre: the config does not pin down the user's home.
          latitude: coarseCoordinate(position.coords.latitude),
          longitude: coarseCoordinate(position.coords.longitude),
        });
      },
      (error) =>
        setGeo({
          busy: false,
          error:
            error.code === error.PERMISSION_DENIED
              ? t("widgets.weather.locate.denied")
              : t("widgets.weather.locate.unavailable"),
        }),
      { timeout: 10_000, maximumAge: 10 * 60_000 },
    );
  };

  return (
    <div className="location-picker">
      <SearchInput
        inForm
        searching={results.isFetching ? t("widgets.weather.search.searching") : undefined}
        aria-label={t("widgets.weather.search.label")}
        aria-controls={listId}
        placeholder={t("widgets.weather.search.placeholder")}
        value={text}
        maxLength={100}
        onChange={(e) => setText(e.target.value)}
      />
      <ul className="place-list" id={listId} aria-label={t("widgets.weather.search.places")}>
        {q.length >= 2 && results.isError && (
          <li className="field-error" role="alert">
            {describeDataError(results.error, PLACES)}
          </li>
        )}
        {q.length >= 2 && results.data?.length === 0 && (
          <li className="muted">{t("widgets.weather.search.none", { query: q })}</li>
        )}
        {q.length >= 2 &&
          results.data?.map((place) => (
            <li key={`${place.id}-${place.latitude}-${place.longitude}`}>
              <button
                type="button"
                className="place-option"
                onClick={() =>
                  onPick({ name: place.name, latitude: place.latitude, longitude: place.longitude })
                }
              >
                <Icon name="mapPin" size={14} />
                <span>{placeLabel(place)}</span>
              </button>
            </li>
          ))}
      </ul>
      <button type="button" className="button ghost small" onClick={locate} disabled={geo.busy}>
        <Icon name="locate" size={15} />{" "}
        {geo.busy ? t("widgets.weather.locate.busy") : t("widgets.weather.locate.button")}
      </button>
      {geo.error && (
        <p className="field-error" role="alert">
          {geo.error}
        </p>
      )}
    </div>
  );
}
