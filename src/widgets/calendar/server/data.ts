import type { AppContext } from "../../../server/context.js";
import type { WidgetData } from "../../../server/widgets/data.js";
import { CalendarDataSchema, type CalendarQuery } from "../contract.js";
import { createCalendarReader } from "./reader.js";

/** What a Calendar widget's stored sources hold (GET /api/widgets/data and public pages). */
export function calendarData(ctx: AppContext): WidgetData<CalendarQuery> {
  const reader = createCalendarReader(ctx);
  return {
    response: CalendarDataSchema,
    summary: "The events of a Calendar widget on a public dashboard, without a session",
    description:
      "For the iCal sources stored in the widget's config, from the start of yesterday (UTC) to `days` ahead. A source that fails is named in `errors` beside the others' events. 404 unless the dashboard is public and the widget is a Calendar widget on it with at least one source.",
    load: (query, widgetId, _request, ownerId) => reader.read(query, { widgetId, ownerId }),
  };
}
