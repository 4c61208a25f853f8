import { useId } from "react";

/** SVG path data for a line through `values` scaled into width × height (y grows downwards). */
export function sparklinePaths(
  values: readonly number[],
  width: number,
  height: number,
  pad = 2,
): { line: string; area: string } | null {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length < 2) return null;
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  const span = max - min || 1;
  const step = (width - pad * 2) / (finite.length - 1);
  const points = finite.map((v, i) => {
    const x = pad + i * step;
    // A flat series sits in the middle rather than on the floor.
    const y = max === min ? height / 2 : pad + (1 - (v - min) / span) * (height - pad * 2);
    return `${x.toFixed(1)},${y.toFixed(1)}`;
  });
  const line = `M${points.join("L")}`;
  const area = `${line}L${(pad + (finite.length - 1) * step).toFixed(1)},${height}L${pad},${height}Z`;
  return { line, area };
}

export function Sparkline({
  values,
  trend,
  label,
  width = 120,
  height = 36,
}: {
  values: readonly number[];
  trend: "up" | "down" | "flat";
  label: string;
  width?: number;
  height?: number;
}) {
  const gradient = useId();
  const paths = sparklinePaths(values, width, height);
  if (!paths) return <svg className="sparkline" viewBox={`0 0 ${width} ${height}`} aria-hidden="true" />;
  return (
    <svg
      className={`sparkline is-${trend}`}
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
    >
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0%" stopColor="currentColor" stopOpacity="0.22" />
          <stop offset="100%" stopColor="currentColor" stopOpacity="0" />
        </linearGradient>
      </defs>
      <path d={paths.area} fill={`url(#${gradient})`} stroke="none" />
      <path
        d={paths.line}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinejoin="round"
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
}
