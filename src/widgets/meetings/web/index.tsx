import { useQuery } from "@tanstack/react-query";
import { type CSSProperties, lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { t } from "../../../web/i18n/i18n";
import { useLocale } from "../../../web/i18n/use-locale";
import type { AppSettings } from "../../../web/lib/app-settings";
import { type Calendar, type CalendarEvent, dataApi, dataKeys } from "../../../web/lib/data-api";
import { useNow } from "../../../web/lib/use-now";
import { Icon } from "../../../web/ui/icons";
import { AgendaPreview } from "../../../web/widget-kit/AgendaPreview";
import { DataFrame } from "../../../web/widget-kit/data/DataFrame";
import { gatedWidget } from "../../../web/widget-kit/data/ProviderGate";
import { useWidgetData } from "../../../web/widget-kit/data/useWidgetData";
import { defineWidget, type WidgetProps } from "../../../web/widget-kit/types";
import { meetingsWidget as contract, type MeetingsConfig } from "../contract";
import { groupByDay, timeRange } from "./logic";
import { calendarsQuery } from "./queries";
import { MeetingsSettings } from "./Settings";

const CreateEventDialog = lazy(() => import("./CreateEventDialog"));

function EventRow({
  event,
  calendar,
  settings,
  now,
}: {
  event: CalendarEvent;
  calendar: Calendar | undefined;
  settings: AppSettings;
  now: number;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const live = Date.parse(event.start) <= now;
  const title = event.title || t("widgets.meetings.untitled");
  return (
    <li
      className={`event${live ? " is-live" : ""}`}
      style={calendar?.color ? ({ "--calendar": calendar.color } as CSSProperties) : undefined}
    >
      <span className="event-bar" aria-hidden="true" />
      <div className="event-text">
        {event.htmlLink ? (
          <a className="event-title" href={event.htmlLink} target="_blank" rel="noopener noreferrer">
            {title}
          </a>
        ) : (
          <span className="event-title">{title}</span>
        )}
        <span className="event-meta">
          {live ? `${t("widgets.meetings.now")} · ` : ""}
          {timeRange(event, settings, locale)}
          {event.location ? ` · ${event.location}` : ""}
        </span>
      </div>
      {event.meetUrl && (
        <a
          className="button small event-join"
          href={event.meetUrl}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={
            event.title
              ? t("widgets.meetings.joinNamed", { title: event.title })
              : t("widgets.meetings.joinMeeting")
          }
        >
          <Icon name="video" size={14} /> {t("widgets.meetings.join")}
        </a>
      )}
    </li>
  );
}

function MeetingsBody({ config, settings }: Pick<WidgetProps<MeetingsConfig>, "config" | "settings">) {
  const { t } = useTranslation();
  const locale = useLocale();
  const now = useNow(60_000).getTime();
  const [creating, setCreating] = useState(false);
  const calendars = useQuery(calendarsQuery);
  const query = useWidgetData({
    queryKey: [...dataKeys.provider("suite"), "events", config.calendars?.join(",") ?? "*"],
    queryFn: () => dataApi.calendar.events(config.calendars),
    refreshMs: 5 * 60_000,
  });
  const byId = new Map(calendars.data?.map((c) => [c.id, c]));

  return (
    <div className="meetings">
      <div className="meetings-toolbar">
        <button type="button" className="button small" onClick={() => setCreating(true)}>
          <Icon name="plus" size={14} /> {t("widgets.meetings.create.title")}
        </button>
      </div>
      <DataFrame
        query={query}
        upstream="suite"
        label={t("widgets.meetings.dataLabel")}
        provider="suite"
        purpose={t("widgets.meetings.purpose")}
        select={(list) => groupByDay(list.events, now, settings.timezone, locale)}
        empty={{ icon: "calendar", text: t("widgets.meetings.empty") }}
      >
        {(groups) => (
          <div className="event-days">
            {groups.map((group) => (
              <section key={group.key} className="event-day" aria-label={group.label}>
                <h3>{group.label}</h3>
                <ul>
                  {group.events.map((event) => (
                    <EventRow
                      key={`${event.calendarId}:${event.id}`}
                      event={event}
                      calendar={byId.get(event.calendarId)}
                      settings={settings}
                      now={now}
                    />
                  ))}
                </ul>
              </section>
            ))}
          </div>
        )}
      </DataFrame>
      {creating && (
        <Suspense fallback={null}>
          <CreateEventDialog settings={settings} onClose={() => setCreating(false)} />
        </Suspense>
      )}
    </div>
  );
}

function MeetingsPreview() {
  const { t } = useTranslation();
  const events = [
    ["09:30", t("widgets.meetings.preview.standup"), "#5b5bd6"],
    ["14:00", t("widgets.meetings.preview.review"), "#e5484d"],
  ] as const;
  return <AgendaPreview events={events} />;
}

export default defineWidget(contract, {
  group: "account",
  words: (t) => ({ name: t("widgets.meetings.name"), description: t("widgets.meetings.description") }),
  keywords: ["calendar", "events", "schedule", "google", "meet", "agenda"],
  icon: "calendar",
  defaultSize: { columns: 6, rows: 21 },
  setupSize: { columns: 5, rows: 12 },
  minSize: { columns: 4, rows: 10 },
  settingsNeedAccount: {
    // Read when the settings panel renders, so it is in the current language.
    get purpose() {
      return t("widgets.meetings.purpose");
    },
  },
  Component: gatedWidget("suite", (t) => t("widgets.meetings.purpose"), MeetingsBody),
  settings: [MeetingsSettings],
  Preview: MeetingsPreview,
});
