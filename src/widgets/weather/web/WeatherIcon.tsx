import type { WeatherKind } from "./logic";

/** Small weather pictures drawn in-house (no icon font; emoji fonts are not everywhere). */

const CLOUD = "M7.5 19h9.5a4 4 0 0 0 .6-7.95 5.5 5.5 0 0 0-10.6-1.3A4.65 4.65 0 0 0 7.5 19z";
const CLOUD_HIGH = "M7.5 15h9.5a4 4 0 0 0 .6-7.95 5.5 5.5 0 0 0-10.6-1.3A4.65 4.65 0 0 0 7.5 15z";

function Sun({ cx = 12, cy = 12, r = 4.2 }: { cx?: number; cy?: number; r?: number }) {
  const rays = Array.from({ length: 8 }, (_, i) => {
    const a = (i * Math.PI) / 4;
    const [c, s] = [Math.cos(a), Math.sin(a)];
    return `M${(cx + c * (r + 2)).toFixed(2)} ${(cy + s * (r + 2)).toFixed(2)}L${(cx + c * (r + 3.8)).toFixed(2)} ${(cy + s * (r + 3.8)).toFixed(2)}`;
  }).join("");
  return (
    <g className="wx-sun">
      <circle cx={cx} cy={cy} r={r} fill="currentColor" />
      <path d={rays} stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
    </g>
  );
}

function Moon({ dx = 0, dy = 0 }: { dx?: number; dy?: number }) {
  return (
    <path
      className="wx-moon"
      transform={`translate(${dx} ${dy})`}
      d="M15.5 4.5a7 7 0 1 0 4 12.5 6 6 0 0 1-4-12.5z"
      fill="currentColor"
    />
  );
}

export function WeatherIcon({
  kind,
  isDay = true,
  size = 28,
  label,
}: {
  kind: WeatherKind;
  isDay?: boolean;
  size?: number;
  label?: string;
}) {
  const precipitation = kind === "rain" || kind === "drizzle" || kind === "snow" || kind === "thunder";
  const cloud = precipitation ? CLOUD_HIGH : CLOUD;
  return (
    <svg
      className={`weather-icon wx-${kind}`}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      role={label ? "img" : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    >
      {kind === "clear" && (isDay ? <Sun /> : <Moon dx={-2} />)}
      {kind === "partly" && (isDay ? <Sun cx={8.5} cy={8} r={3.4} /> : <Moon dx={-5.5} dy={-3.5} />)}
      {kind !== "clear" && kind !== "fog" && (
        <path className="wx-cloud" d={cloud} strokeWidth="1.4" strokeLinejoin="round" />
      )}
      {kind === "fog" && (
        <g className="wx-fog" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round">
          <path d="M4 8h16M6 12h14M4 16h13M7 20h10" />
        </g>
      )}
      {kind === "rain" && (
        <path
          className="wx-rain"
          d="M8.5 17.5l-1 3M12.5 17.5l-1 3M16.5 17.5l-1 3"
          strokeWidth="1.7"
          strokeLinecap="round"
        />
      )}
      {kind === "drizzle" && (
        <g className="wx-rain-dots">
          <circle cx="8.5" cy="18.5" r="1" />
          <circle cx="12.5" cy="20" r="1" />
          <circle cx="16.5" cy="18.5" r="1" />
        </g>
      )}
      {kind === "snow" && (
        <g className="wx-snow">
          <circle cx="8.5" cy="18.5" r="1.25" />
          <circle cx="12.5" cy="20.5" r="1.25" />
          <circle cx="16.5" cy="18.5" r="1.25" />
        </g>
      )}
      {kind === "thunder" && <path className="wx-bolt" d="M13 15.5l-2.5 4h3l-1.5 3.5 4-5h-3l1.5-2.5z" />}
    </svg>
  );
}
