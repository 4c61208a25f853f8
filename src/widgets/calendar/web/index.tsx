import type { CSSProperties, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { t as translate } from "../../../web/i18n/i18n";
import { useLocale } from "../../../web/i18n/use-locale";
import type { AppSettings } from "../../../web/lib/app-settings";
import { useNow } from "../../../web/lib/use-now";
import { Icon } from "../../../web/ui/icons";
import { AgendaPreview } from "../../../web/widget-kit/AgendaPreview";
import { useAskAgainOnceSaved } from "../../../web/widget-kit/data/ask-again";
import { DataFrame } from "../../../web/widget-kit/data/DataFrame";
import { useDataSource } from "../../../web/widget-kit/data/source";
import { useWidgetData } from "../../../web/widget-kit/data/useWidgetData";
import { defineWidget, type WidgetProps } from "../../../web/widget-kit/types";
import { WidgetEmpty } from "../../../web/widget-kit/WidgetEmpty";
import { type CalendarConfig, type CalendarData, calendarWidget as contract } from "../contract";
import { askedOf, calendarRequest } from "./api";
import "./calendar.css";
import { type AgendaEvent, agenda, failures, type SourceLook, sourceLooks, timeLabel } from "./logic";
import { CalendarRemindSetting, CalendarSourcesSetting } from "./Settings";

function EventRow({
  event,
  look,
  settings,
}: {
  event: AgendaEvent;
  look: SourceLook | undefined;
  settings: AppSettings;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const state = [event.past && "is-past", event.live && "is-live", event.allDay && "is-all-day"]
    .filter(Boolean)
    .join(" ");
  return (
    <li
      className={`calendar-event${state ? ` ${state}` : ""}`}
      style={{ "--source": look?.color ?? "var(--accent)" } as CSSProperties}
    >
      <span className="calendar-dot" aria-hidden="true" />
      <span className="calendar-time">{timeLabel(event, settings, locale)}</span>
      <span className="calendar-text">
        <span className="calendar-title">{event.title || t("widgets.calendar.untitled")}</span>
        <span className="calendar-meta">
          {look?.name}
          {event.location ? ` · ${event.location}` : ""}
        </span>
      </span>
    </li>
  );
}

function NowLine() {
  const { t } = useTranslation();
  return (
    <li className="calendar-now" aria-label={t("widgets.calendar.now")}>
      <span>{t("widgets.calendar.now")}</span>
    </li>
  );
}

function Agenda({
  data,
  config,
  settings,
}: {
  data: CalendarData;
  config: CalendarConfig;
  settings: AppSettings;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const now = useNow(60_000).getTime();
  const looks = sourceLooks(config);
  const days = agenda(data.events, now, config.days, settings.timezone, locale);
  const failed = failures(data.errors, looks);
  return (
    <div className="calendar">
      {failed.length > 0 && (
        <ul className="calendar-failures" aria-label={t("widgets.calendar.failuresLabel")}>
          {failed.map((failure) => (
            <li
              key={failure.sourceId}
              className="calendar-failure"
              style={{ "--source": failure.look.color } as CSSProperties}
            >
              <Icon name="alert" size={13} />
              <span>
                <strong>{failure.look.name}</strong>: {failure.text}
              </span>
            </li>
          ))}
        </ul>
      )}
      {days.length === 0 ? (
        <WidgetEmpty icon="calendar" text={t("widgets.calendar.nothing", { count: config.days })} />
      ) : (
        days.map((day) => (
          <section
            key={day.key}
            className={`calendar-day${day.isToday ? " is-today" : ""}`}
            aria-label={day.label}
          >
            <h3>{day.label}</h3>
            <ul>
              {day.events.map((event, index) => (
                <EventGroup key={`${event.sourceId}|${event.id}|${day.key}`} before={day.nowAt === index}>
                  <EventRow event={event} look={looks.get(event.sourceId)} settings={settings} />
                </EventGroup>
              ))}
              {day.nowAt === day.events.length && <NowLine />}
            </ul>
          </section>
        ))
      )}
    </div>
  );
}

/** An event, with the "now" line above it when it is the first one still to come today. */
function EventGroup({ before, children }: { before: boolean; children: ReactNode }) {
  return (
    <>
      {before && <NowLine />}
      {children}
    </>
  );
}

function CalendarWidget({ widget, config, settings, readOnly, openSettings }: WidgetProps<CalendarConfig>) {
  const { t } = useTranslation();
  const source = useDataSource();
  const query = useWidgetData({
    ...calendarRequest(source, widget.id, config),
    refreshMs: 5 * 60_000,
    enabled: config.sources.length > 0,
  });
  useAskAgainOnceSaved(query, widget.revision, askedOf(config));
  if (config.sources.length === 0)
    return (
      <WidgetEmpty
        icon="calendar"
        text={readOnly ? t("widgets.calendar.noneReadOnly") : t("widgets.calendar.none")}
        action={readOnly ? undefined : { label: t("widgets.calendar.setUp"), onClick: openSettings }}
      />
    );
  return (
    <DataFrame
      query={query}
      label={t("widgets.calendar.dataLabel")}
      upstream={{ service: t("widgets.calendar.theFeeds") }}
      readOnly={readOnly}
    >
      {(envelope) => <Agenda data={envelope.data} config={config} settings={settings} />}
    </DataFrame>
  );
}

function CalendarPreview() {
  const { t } = useTranslation();
  const rows = [
    ["09:30", t("widgets.calendar.preview.standup"), "#3b82f6"],
    ["18:00", t("widgets.calendar.preview.yoga"), "#10b981"],
  ] as const;
  return <AgendaPreview events={rows} />;
}

export default defineWidget(contract, {
  group: "data",
  words: (t) => ({ name: t("widgets.calendar.name"), description: t("widgets.calendar.description") }),
  keywords: ["calendar", "ical", "ics", "webcal", "agenda", "events", "nextcloud", "outlook", "google"],
  icon: "calendar",
  defaultSize: { columns: 6, rows: 24 },
  minSize: { columns: 4, rows: 8 },
  Component: CalendarWidget,
  settings: [
    CalendarSourcesSetting,
    { key: "days", label: () => translate("widgets.calendar.settings.days") },
    CalendarRemindSetting,
  ],
  Preview: CalendarPreview,
});
