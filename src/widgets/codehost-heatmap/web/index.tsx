import { Trans, useTranslation } from "react-i18next";
import { t } from "../../../web/i18n/i18n";
import { useLocale } from "../../../web/i18n/use-locale";
import { dataApi, dataKeys } from "../../../web/lib/data-api";
import { DataFrame } from "../../../web/widget-kit/data/DataFrame";
import { gatedWidget } from "../../../web/widget-kit/data/ProviderGate";
import { useWidgetData } from "../../../web/widget-kit/data/useWidgetData";
import { defineWidget } from "../../../web/widget-kit/types";
import { heatmapWidget as contract, type HeatmapConfig } from "../contract";
import { describeDay, type HeatmapDay, heatmapGrid, heatmapStats, weekdayLabels } from "./logic";

const CELL = 10;
const GAP = 2;
const LEFT = 22;
const TOP = 14;

function HeatmapSvg({ days }: { days: HeatmapDay[] }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { weeks, months } = heatmapGrid(days, locale);
  const width = LEFT + weeks.length * (CELL + GAP);
  const height = TOP + 7 * (CELL + GAP);
  return (
    <svg
      className="heatmap-svg"
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="xMidYMid meet"
      role="img"
      aria-label={t("widgets.codehostHeatmap.chart")}
    >
      {months.map((m) => (
        <text key={`${m.week}-${m.label}`} x={LEFT + m.week * (CELL + GAP)} y={9} className="heatmap-label">
          {m.label}
        </text>
      ))}
      {weekdayLabels(locale).map(({ row, label }) => (
        <text key={row} x={0} y={TOP + row * (CELL + GAP) + CELL - 1} className="heatmap-label">
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
              <title>{describeDay(day, locale)}</title>
            </rect>
          ) : null,
        ),
      )}
    </svg>
  );
}

function HeatmapBody({ config }: { config: HeatmapConfig }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const query = useWidgetData({
    queryKey: [...dataKeys.provider("codehost"), "contributions", config.login ?? ""],
    queryFn: () => dataApi.codehost.contributions(config.login),
    refreshMs: 60 * 60_000,
  });
  return (
    <DataFrame query={query} upstream="codehost" label={t("widgets.codehostHeatmap.data")}>
      {(data) => {
        const stats = heatmapStats(data);
        return (
          <div className="heatmap">
            <p className="heatmap-total">
              <Trans
                i18nKey="widgets.codehostHeatmap.total"
                count={stats.total}
                values={{ login: data.login }}
                components={{
                  strong: <strong />,
                  link: (
                    // biome-ignore lint/a11y/useAnchorContent: Trans puts the login inside.
                    <a href={`https://github.com/${data.login}`} target="_blank" rel="noopener noreferrer" />
                  ),
                }}
              />
            </p>
            <HeatmapSvg days={data.days} />
            <div className="heatmap-footer">
              <dl className="heatmap-stats">
                <div>
                  <dt>{t("widgets.codehostHeatmap.longestStreak")}</dt>
                  <dd>{t("widgets.codehostHeatmap.days", { count: stats.longestStreak })}</dd>
                </div>
                <div>
                  <dt>{t("widgets.codehostHeatmap.currentStreak")}</dt>
                  <dd>{t("widgets.codehostHeatmap.days", { count: stats.currentStreak })}</dd>
                </div>
                <div>
                  <dt>{t("widgets.codehostHeatmap.activeDays")}</dt>
                  <dd>{new Intl.NumberFormat(locale).format(stats.activeDays)}</dd>
                </div>
              </dl>
              <div className="heatmap-legend" aria-hidden="true">
                {t("widgets.codehostHeatmap.less")}
                {[0, 1, 2, 3, 4].map((level) => (
                  <svg key={level} width="10" height="10" viewBox="0 0 10 10" aria-hidden="true">
                    <rect width="10" height="10" rx="2" className={`hm-${level}`} />
                  </svg>
                ))}
                {t("widgets.codehostHeatmap.more")}
              </div>
            </div>
          </div>
        );
      }}
    </DataFrame>
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

export default defineWidget(contract, {
  group: "account",
  words: (t) => ({
    name: t("widgets.codehostHeatmap.name"),
    description: t("widgets.codehostHeatmap.description"),
  }),
  keywords: ["github", "contributions", "activity", "streak", "calendar", "developer"],
  icon: "heatmap",
  defaultSize: { columns: 12, rows: 14 },
  setupSize: { columns: 5, rows: 12 },
  minSize: { columns: 6, rows: 9 },
  title: (config) => (config.login ? t("widgets.codehostHeatmap.title", { login: config.login }) : undefined),
  Component: gatedWidget("codehost", (t) => t("widgets.codehostHeatmap.purpose"), HeatmapBody),
  settings: [
    // Getters: the form reads its words when it renders, in the language of that moment.
    {
      key: "login",
      get label() {
        return t("widgets.codehostHeatmap.login.label");
      },
      get hint() {
        return t("widgets.codehostHeatmap.login.hint");
      },
      placeholder: "octocat",
      autoComplete: "off",
      get invalid() {
        return t("widgets.codehostHeatmap.login.invalid");
      },
    },
  ],
  Preview: HeatmapPreview,
});
