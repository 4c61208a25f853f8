import { randomUUID } from "node:crypto";
import {
  CALENDAR_ID_PATTERN,
  type Calendar,
  type CalendarEvent,
  type NewEvent,
} from "../../../contract/data.js";
import { badRequest, upstreamFailed } from "../../http/errors.js";
import {
  GoogleCalendarList,
  GoogleEvent,
  type GoogleEventBody,
  GoogleEventList,
} from "../../upstream/sources/google.js";
import { accountData, type ProviderServices } from "../client.js";
import type { AccountRow } from "../tokens.js";

/** Google Calendar API v3 (https://developers.google.com/calendar/api/v3/reference). */
const CALENDAR = "/calendar/v3";
const SERVICE = "Google";
const MAX_CALENDAR_PAGES = 5;

const CALENDARS = accountData("calendars", "providerData");

export const CALENDAR_ID = new RegExp(CALENDAR_ID_PATTERN);

export async function listCalendars(services: ProviderServices, row: AccountRow): Promise<Calendar[]> {
  return services.cached(CALENDARS, services.key(row, "calendars"), async () => {
    const out: Calendar[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < MAX_CALENDAR_PAGES; page++) {
      const query = new URLSearchParams({ maxResults: "250" });
      if (pageToken) query.set("pageToken", pageToken);
      const res = await services.call(row, {
        path: `${CALENDAR}/users/me/calendarList?${query}`,
        what: "calendar list",
      });
      const body = GoogleCalendarList.read(res);
      for (const c of body.items ?? []) {
        const role = c.accessRole ?? "reader";
        out.push({
          id: c.id,
          name: c.summaryOverride ?? c.summary ?? c.id,
          primary: c.primary === true,
          color: c.backgroundColor ?? null,
          foregroundColor: c.foregroundColor ?? null,
          accessRole: role,
          writable: role === "owner" || role === "writer",
          timeZone: c.timeZone ?? null,
        });
      }
      pageToken = body.nextPageToken;
      if (!pageToken) break;
    }
    return out;
  });
}

/**
 * Upcoming timed events across calendars. `singleEvents` expands recurring events into their
 * instances and `orderBy=startTime` sorts them, so the first `limit` of each calendar are enough
 * to know the first `limit` overall: one request per calendar, no per-event calls.
 */
export async function upcomingEvents(
  services: ProviderServices,
  row: AccountRow,
  options: { calendars?: string[]; days: number; limit: number },
) {
  const ids = options.calendars ?? (await listCalendars(services, row)).map((c) => c.id);
  const key = services.key(row, "events", ids.join(","), options.days, options.limit);
  return services.cached(CALENDARS, key, async () => {
    const now = new Date();
    const until = new Date(now.getTime() + options.days * 86_400_000);
    const perCalendar = await Promise.all(
      ids.map(async (calendarId) => {
        const query = new URLSearchParams({
          singleEvents: "true",
          orderBy: "startTime",
          timeMin: now.toISOString(),
          timeMax: until.toISOString(),
          maxResults: String(options.limit),
        });
        const res = await services.call(row, {
          path: `${CALENDAR}/calendars/${encodeURIComponent(calendarId)}/events?${query}`,
          what: "calendar",
        });
        const body = GoogleEventList.read(res);
        return (body.items ?? []).flatMap((e) => toEvent(e, calendarId) ?? []);
      }),
    );
    const events = perCalendar.flat().sort((a, b) => a.start.localeCompare(b.start));
    return { events: events.slice(0, options.limit), from: now.toISOString(), until: until.toISOString() };
  });
}

export async function createEvent(services: ProviderServices, row: AccountRow, input: NewEvent) {
  const start = Date.parse(input.start);
  const end = Date.parse(input.end);
  if (!(end > start))
    throw badRequest("end must be after start", [{ path: "/end", message: "must be after start" }]);
  const at = (iso: string) =>
    input.timeZone ? { dateTime: iso, timeZone: input.timeZone } : { dateTime: iso };
  const body: Record<string, unknown> = {
    summary: input.title,
    start: at(new Date(start).toISOString()),
    end: at(new Date(end).toISOString()),
  };
  if (input.location) body.location = input.location;
  if (input.description) body.description = input.description;
  if (input.meet) {
    body.conferenceData = {
      createRequest: { requestId: randomUUID(), conferenceSolutionKey: { type: "hangoutsMeet" } },
    };
  }
  const query = input.meet ? "?conferenceDataVersion=1" : "";
  const res = await services.call(row, {
    what: "calendar",
    method: "POST",
    path: `${CALENDAR}/calendars/${encodeURIComponent(input.calendarId)}/events${query}`,
    json: body,
  });
  const created = toEvent(GoogleEvent.read(res), input.calendarId);
  services.invalidate(CALENDARS, services.key(row, "events"));
  if (!created) throw upstreamFailed(`${SERVICE}: the created event came back without start and end times`);
  return created;
}

/** Our event shape; all-day (date-only) and cancelled events are left out of the widget. */
function toEvent(e: GoogleEventBody, calendarId: string): CalendarEvent | null {
  if (!e.start?.dateTime || !e.end?.dateTime || e.status === "cancelled") return null;
  const video = e.conferenceData?.entryPoints?.find((p) => p.entryPointType === "video")?.uri;
  return {
    id: e.id,
    calendarId,
    title: e.summary ?? "(no title)",
    start: new Date(e.start.dateTime).toISOString(),
    end: new Date(e.end.dateTime).toISOString(),
    location: e.location ?? null,
    meetUrl: e.hangoutLink ?? video ?? null,
    htmlLink: e.htmlLink ?? null,
    status: e.status ?? "confirmed",
  };
}
