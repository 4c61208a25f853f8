import { useId } from "react";
import { useTranslation } from "react-i18next";
import { useLocale } from "../../../web/i18n/use-locale";
import type { AppSettings } from "../../../web/lib/app-settings";
import { useNow } from "../../../web/lib/use-now";
import { Icon } from "../../../web/ui/icons";
import { dayKey, formatTime } from "../../../web/widget-kit/data/format";
import { IntegrationFrame } from "../../../web/widget-kit/data/IntegrationFrame";
import { useIntegrationData } from "../../../web/widget-kit/data/integration-data";
import type { WidgetProps } from "../../../web/widget-kit/types";
import {
  upcomingMediaWidget as contract,
  type QueueEntry,
  UPCOMING_REFRESH_MS,
  type UpcomingEpisode,
  type UpcomingMediaConfig,
  type UpcomingMediaData,
  type UpcomingMovie,
} from "../contract";
import {
  describeUpcomingError,
  episodeCode,
  progressWords,
  queueName,
  reasonWords,
  releaseWords,
  stateWord,
  timeLeftWords,
  upcomingDays,
} from "./logic";

type Names = Map<string, string>;

function Failures({ data }: { data: UpcomingMediaData }) {
  const { t } = useTranslation();
  const failed = data.sources.filter((s) => s.error);
  if (failed.length === 0) return null;
  return (
    <ul className="upcoming-failures" aria-label={t("widgets.upcomingMedia.failuresLabel")}>
      {failed.map((source) => (
        <li key={source.integrationId} className="upcoming-failure" title={source.error!.detail}>
          <Icon name="alert" size={13} />
          <span>
            <strong>{source.name ?? t("widgets.upcomingMedia.fallbackName")}</strong>:{" "}
            {reasonWords(source.error!.reason)}
          </span>
        </li>
      ))}
    </ul>
  );
}

function FinaleBadge({ type }: { type: string | null }) {
  const { t } = useTranslation();
  const words =
    type === "series"
      ? t("widgets.upcomingMedia.finale.series")
      : type === "season"
        ? t("widgets.upcomingMedia.finale.season")
        : type === "midseason"
          ? t("widgets.upcomingMedia.finale.midseason")
          : null;
  return words ? <span className="upcoming-badge">{words}</span> : null;
}

function HasFile() {
  const { t } = useTranslation();
  const words = t("widgets.upcomingMedia.downloaded");
  return (
    <span className="upcoming-has-file" title={words}>
      <Icon name="check" size={13} />
      <span className="visually-hidden">{words}</span>
    </span>
  );
}

function EpisodeRow({
  episode,
  settings,
  now,
  source,
}: {
  episode: UpcomingEpisode;
  settings: AppSettings;
  now: number;
  source: string | null;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const start = Date.parse(episode.airDateUtc);
  const past = start + Math.max(episode.runtimeMinutes, 1) * 60_000 <= now;
  const meta = [
    episodeCode(episode.seasonNumber, episode.episodeNumber),
    episode.title ?? t("widgets.upcomingMedia.tba"),
    source,
  ].filter(Boolean);
  return (
    <li className={`upcoming-entry${past ? " is-past" : ""}`} data-kind="episode">
      <time className="upcoming-time" dateTime={episode.airDateUtc}>
        {formatTime(start, settings, locale)}
      </time>
      <span className="upcoming-text">
        <span className="upcoming-title">{episode.series ?? t("widgets.upcomingMedia.unknownSeries")}</span>
        <span className="upcoming-meta">
          {meta.join(" · ")}
          <FinaleBadge type={episode.finaleType} />
        </span>
      </span>
      {episode.hasFile && <HasFile />}
    </li>
  );
}

function MovieRow({ movie, today, source }: { movie: UpcomingMovie; today: string; source: string | null }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const releases = releaseWords(movie, today, locale);
  return (
    <li className="upcoming-entry is-movie" data-kind="movie">
      <span className="upcoming-time" title={t("widgets.upcomingMedia.movie")}>
        <Icon name="video" size={14} />
        <span className="visually-hidden">{t("widgets.upcomingMedia.movie")}</span>
      </span>
      <span className="upcoming-text">
        <span className="upcoming-title">{movie.year ? `${movie.title} (${movie.year})` : movie.title}</span>
        <span className="upcoming-meta upcoming-releases">
          {[...releases, source].flatMap((words, i) =>
            words ? [i > 0 ? " · " : "", <span key={words}>{words}</span>] : [],
          )}
        </span>
      </span>
      {movie.hasFile && <HasFile />}
    </li>
  );
}

function Upcoming({
  data,
  config,
  settings,
  names,
}: {
  data: UpcomingMediaData;
  config: UpcomingMediaConfig;
  settings: AppSettings;
  names: Names | null;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const heading = useId();
  const now = useNow(60_000).getTime();
  const today = dayKey(now, settings.timezone);
  const days = upcomingDays(data.calendar, now, config.days, settings.timezone, locale);
  const truncated = data.sources.some((s) => s.calendarTruncated);
  return (
    <section className="upcoming-part" aria-labelledby={heading}>
      <h3 id={heading} className="upcoming-heading">
        {t("widgets.upcomingMedia.comingUp")}
      </h3>
      {days.length === 0 ? (
        <p className="upcoming-none">{t("widgets.upcomingMedia.nothing", { count: config.days })}</p>
      ) : (
        days.map((day) => (
          <section
            key={day.key}
            className={`upcoming-day${day.isToday ? " is-today" : ""}`}
            aria-label={day.label}
          >
            <h4>{day.label}</h4>
            <ul>
              {day.entries.map((entry) =>
                entry.type === "episode" ? (
                  <EpisodeRow
                    key={`${entry.integrationId}|e${entry.id}`}
                    episode={entry}
                    settings={settings}
                    now={now}
                    source={names?.get(entry.integrationId) ?? null}
                  />
                ) : (
                  <MovieRow
                    key={`${entry.integrationId}|m${entry.id}`}
                    movie={entry}
                    today={today}
                    source={names?.get(entry.integrationId) ?? null}
                  />
                ),
              )}
            </ul>
          </section>
        ))
      )}
      {truncated && <p className="upcoming-more">{t("widgets.upcomingMedia.truncated")}</p>}
    </section>
  );
}

function QueueRow({ entry, source }: { entry: QueueEntry; source: string | null }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { name, detail } = queueName(entry);
  const facts = [
    entry.progress === null ? null : progressWords(entry.progress, locale),
    timeLeftWords(entry.timeLeftSeconds, entry.state),
    entry.downloadClient,
    source,
  ].filter(Boolean);
  const percent = entry.progress === null ? null : Math.round(entry.progress * 100);
  return (
    <li className={`queue-entry is-${entry.health} is-${entry.state}`} data-download={entry.id}>
      <div className="queue-head">
        <span className="queue-name" title={entry.title}>
          {name}
        </span>
        <span className="queue-state">
          {entry.health !== "ok" && <Icon name="alert" size={12} />}
          {stateWord(entry.state)}
        </span>
      </div>
      {detail && <span className="queue-detail">{detail}</span>}
      {percent !== null && (
        <div
          className="queue-bar"
          role="progressbar"
          aria-label={t("widgets.upcomingMedia.progressOf", { name })}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
        >
          <span style={{ width: `${percent}%` }} />
        </div>
      )}
      {facts.length > 0 && <span className="queue-meta">{facts.join(" · ")}</span>}
      {entry.messages.length > 0 && (
        <ul className="queue-messages">
          {entry.messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </li>
  );
}

function Queue({ data, names }: { data: UpcomingMediaData; names: Names | null }) {
  const { t } = useTranslation();
  const heading = useId();
  const more = data.sources.reduce((sum, s) => sum + s.queueMore, 0);
  return (
    <section className="upcoming-part" aria-labelledby={heading}>
      <h3 id={heading} className="upcoming-heading">
        {t("widgets.upcomingMedia.queue")}
        <span className="upcoming-count">{data.queue.length + more}</span>
      </h3>
      {data.queue.length === 0 ? (
        <p className="upcoming-none">{t("widgets.upcomingMedia.queueEmpty")}</p>
      ) : (
        <ul className="queue-entries">
          {data.queue.map((entry) => (
            <QueueRow
              key={`${entry.integrationId}|${entry.id}`}
              entry={entry}
              source={names?.get(entry.integrationId) ?? null}
            />
          ))}
        </ul>
      )}
      {more > 0 && <p className="upcoming-more">{t("widgets.upcomingMedia.more", { count: more })}</p>}
    </section>
  );
}

function Media({
  data,
  config,
  settings,
}: {
  data: UpcomingMediaData;
  config: UpcomingMediaConfig;
  settings: AppSettings;
}) {
  const { t } = useTranslation();
  const usable = data.sources.filter((s) => s.name && !s.error);
  // With several services, each row says which one it is from.
  const names: Names | null =
    usable.length > 1 ? new Map(usable.map((s) => [s.integrationId, s.name!])) : null;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: its own scroll region, so the keyboard reaches rows past the card's height (WCAG 2.1.1), as a viewer has no control inside to tab to.
    <section className="upcoming" tabIndex={0} aria-label={t("widgets.upcomingMedia.listLabel")}>
      <Failures data={data} />
      {config.show !== "queue" && <Upcoming data={data} config={config} settings={settings} names={names} />}
      {config.show !== "calendar" && <Queue data={data} names={names} />}
    </section>
  );
}

/** The widget's view, loaded on its own: the first bundle carries only its name, icon and preview. */
export default function UpcomingMediaWidget({
  widget,
  config,
  settings,
  readOnly,
  openSettings,
}: WidgetProps<UpcomingMediaConfig>) {
  const { t } = useTranslation();
  const data = useIntegrationData<UpcomingMediaData>({
    widget,
    asks: contract.data.visitorQuery(config),
    name: "upcoming-media",
    refreshMs: UPCOMING_REFRESH_MS,
  });
  return (
    <IntegrationFrame
      data={data}
      readOnly={readOnly}
      openSettings={openSettings}
      empty={{
        icon: "video",
        text: t("widgets.upcomingMedia.empty"),
        readOnlyText: t("widgets.upcomingMedia.emptyReadOnly"),
        setUp: t("widgets.upcomingMedia.setUp"),
      }}
      errorTitle={t("widgets.upcomingMedia.couldNotLoad")}
      describeError={describeUpcomingError}
      label={t("widgets.upcomingMedia.dataLabel")}
      upstream={{ service: "Sonarr / Radarr" }}
    >
      {(shown) => <Media data={shown} config={config} settings={settings} />}
    </IntegrationFrame>
  );
}
