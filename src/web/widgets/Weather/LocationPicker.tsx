import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { coarseCoordinate } from "../../../contract/coordinates";
import type { WeatherLocation } from "../../../contract/widgets/weather";
import { describeError } from "../../lib/api";
import { dataApi } from "../../lib/data-api";
import { useDebounced } from "../../lib/use-debounced";
import { Icon } from "../../ui/icons";
import { Spinner } from "../../ui/States";
import { retryData } from "../data/useWidgetData";
import { placeLabel } from "./logic";

/** Find a place by name (geocoding through our server) or use the browser's position. */
export function LocationPicker({ onPick }: { onPick(location: WeatherLocation): void }) {
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
      setGeo({ busy: false, error: "This browser can't share its position. Search for a place instead." });
      return;
    }
    setGeo({ busy: true, error: null });
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setGeo({ busy: false, error: null });
        onPick({
          name: "Current location",
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
              ? "Location access is blocked for this site. Allow it in the browser, or search for a place."
              : "Your position isn't available right now. Search for a place instead.",
        }),
      { timeout: 10_000, maximumAge: 10 * 60_000 },
    );
  };

  return (
    <div className="location-picker">
      <div className="search-input">
        <Icon name="search" size={15} />
        <input
          type="search"
          // In a settings form Enter would save and close the panel; here it only searches.
          onKeyDown={(e) => e.key === "Enter" && e.preventDefault()}
          aria-label="Search for a place"
          aria-controls={listId}
          placeholder="Search for a city"
          value={text}
          maxLength={100}
          onChange={(e) => setText(e.target.value)}
        />
        {results.isFetching && <Spinner label="Searching" />}
      </div>
      <ul className="place-list" id={listId} aria-label="Places">
        {q.length >= 2 && results.isError && (
          <li className="field-error" role="alert">
            {describeError(results.error)}
          </li>
        )}
        {q.length >= 2 && results.data?.length === 0 && <li className="muted">No place called “{q}”.</li>}
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
        <Icon name="locate" size={15} /> {geo.busy ? "Finding you…" : "Use my location"}
      </button>
      {geo.error && (
        <p className="field-error" role="alert">
          {geo.error}
        </p>
      )}
    </div>
  );
}
