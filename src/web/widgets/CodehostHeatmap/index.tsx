import { heatmapWidget as contract, type HeatmapConfig } from "../../../contract/widgets/codehost-heatmap";
import { dataApi, dataKeys } from "../../lib/data-api";
import { DataFrame } from "../data/DataFrame";
import { ProviderGate } from "../data/ProviderGate";
import { useWidgetData } from "../data/useWidgetData";
import { defineWidget, type WidgetProps } from "../types";
import { type HeatmapDay, heatmapGrid, heatmapStats } from "./logic";

const CELL = 10;
const GAP = 2;
const LEFT = 22;
const TOP = 14;

const plural = (n: number, word: string) => `${n.toLocaleString()} ${word}${n === 1 ? "" : "s"}`;

const dayFormat = new Intl.DateTimeFormat(undefined, {
  timeZone: "UTC",
  weekday: "short",
  day: "numeric",
  month: "short",
  year: "numeric",
});

function describe(day: HeatmapDay) {
  const when = dayFormat.format(new Date(`${day.date}T12:00:00Z`));
  return `${day.count === 0 ? "No" : day.count} contribution${day.count === 1 ? "" : "s"} on ${when}`;
}

function HeatmapSvg({ days }: { days: HeatmapDay[] }) {
  const { weeks, months } = heatmapGrid(days);
  const width = LEFT + weeks.length * (CELL + GAP);
  const height = TOP + 7 * (CELL + GAP);
  return (
    <svg
      className="heatmap-svg"
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="xMidYMid meet"
      role="img"
      aria-label="Contributions per day over the year"
    >
      {months.map((m) => (
        <text key={`${m.week}-${m.label}`} x={LEFT + m.week * (CELL + GAP)} y={9} className="heatmap-label">
          {m.label}
        </text>
      ))}
      {(
        [
          [1, "Mon"],
          [3, "Wed"],
          [5, "Fri"],
        ] as const
      ).map(([row, label]) => (
        <text key={label} x={0} y={TOP + row * (CELL + GAP) + CELL - 1} className="heatmap-label">
          {label}
        </text>
      ))}
      {weeks.map((week, w) =>
        week.map((day, d) =>
          day ? (
            <rect
              // biome-ignore lint/suspicious/noArrayIndexKey: the grid position is the identity.
              key={`${w}-${d}`}
              x={LEFT + w * (CELL + GAP)}
              y={TOP + d * (CELL + GAP)}
              width={CELL}
              height={CELL}
              rx={2}
              className={`hm-${day.level}`}
              data-date={day.date}
              data-count={day.count}
            >
              <title>{describe(day)}</title>
            </rect>
          ) : null,
        ),
      )}
    </svg>
  );
}

function HeatmapBody({ config }: { config: HeatmapConfig }) {
  const query = useWidgetData({
    queryKey: [...dataKeys.provider("codehost"), "contributions", config.login ?? ""],
    queryFn: () => dataApi.codehost.contributions(config.login),
    refreshMs: 60 * 60_000,
  });
  return (
    <DataFrame query={query} upstream="codehost" label="contributions">
      {(data) => {
        const stats = heatmapStats(data);
        return (
          <div className="heatmap">
            <p className="heatmap-total">
              <strong>{plural(stats.total, "contribution")}</strong> in the last year by{" "}
              <a href={`https://github.com/${data.login}`} target="_blank" rel="noopener noreferrer">
                @{data.login}
              </a>
            </p>
            <HeatmapSvg days={data.days} />
            <div className="heatmap-footer">
              <dl className="heatmap-stats">
                <div>
                  <dt>Longest streak</dt>
                  <dd>{plural(stats.longestStreak, "day")}</dd>
                </div>
                <div>
                  <dt>Current streak</dt>
                  <dd>{plural(stats.currentStreak, "day")}</dd>
                </div>
                <div>
                  <dt>Active days</dt>
                  <dd>{stats.activeDays.toLocaleString()}</dd>
                </div>
              </dl>
              <div className="heatmap-legend" aria-hidden="true">
                Less
                {[0, 1, 2, 3, 4].map((level) => (
                  <svg key={level} width="10" height="10" viewBox="0 0 10 10" aria-hidden="true">
                    <rect width="10" height="10" rx="2" className={`hm-${level}`} />
                  </svg>
                ))}
                More
              </div>
            </div>
          </div>
        );
      }}
    </DataFrame>
  );
}

function HeatmapWidget({ config }: WidgetProps<HeatmapConfig>) {
  return (
    <ProviderGate provider="codehost" purpose="to see a year of contributions">
      <HeatmapBody config={config} />
    </ProviderGate>
  );
}

function HeatmapPreview() {
  return (
    <svg className="preview preview-heatmap" viewBox="0 0 96 40" aria-hidden="true">
      {Array.from({ length: 48 }, (_, i) => (
        <rect
          // biome-ignore lint/suspicious/noArrayIndexKey: a static picture.
          key={i}
          x={(i % 12) * 8}
          y={Math.floor(i / 12) * 10}
          width={6}
          height={8}
          rx={1.5}
          className={`hm-${(i * 7) % 5}`}
        />
      ))}
    </svg>
  );
}

export const heatmapWidget = defineWidget(contract, {
  name: "GitHub Heatmap",
  description: "A year of GitHub contributions as a heatmap, with totals and streaks. Needs GitHub.",
  keywords: ["github", "contributions", "activity", "streak", "calendar", "developer"],
  icon: "heatmap",
  defaultSize: { columns: 12, rows: 14 },
  setupSize: { columns: 5, rows: 12 },
  minSize: { columns: 6, rows: 9 },
  title: (config) => (config.login ? `GitHub Heatmap · @${config.login}` : undefined),
  Component: HeatmapWidget,
  settings: [
    {
      key: "login",
      label: "GitHub login",
      hint: "Leave empty for the account you connected.",
      placeholder: "octocat",
      autoComplete: "off",
      invalid: "Not a GitHub login: letters, digits and single dashes, up to 39",
    },
  ],
  Preview: HeatmapPreview,
});
