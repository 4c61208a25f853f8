import type { Notification } from "../../../contract/resources.js";
import { serverText } from "../../../contract/server-text.js";
import { startsText } from "../../../contract/widget-kit/reminders.js";
import type { AppContext } from "../../../server/context.js";
import type { Db } from "../../../server/db/client.js";
import { recordAlert } from "../../../server/jobs/record.js";
import {
  DEFAULT_PASS_BUDGET_MS,
  type WatchDeps,
  type WatchedWidget,
  type Watcher,
} from "../../../server/jobs/watch/pass.js";
import type { CalendarConfig, CalendarEvent } from "../contract.js";
import { calendarWidget } from "../contract.js";
import { createCalendarReader } from "./reader.js";

/**
 * Calendar `remindMinutesBefore`, as Meetings does it (DESIGN section 11): each pass reminds of
 * every timed event of the widget's sources that starts within that many minutes and has not
 * started yet. All-day events have no hour to remind before, so they never remind. The once-only
 * key names the source, the occurrence, its start and the lead time: a moved event or a changed
 * lead time reminds again, a pass that sees the same event twice does not, and a server that was
 * down through the window stays quiet about an event that has begun. Feeds are read through the
 * same cache the widget's data is, so a pass costs a host no more than an open tab does.
 */
export function calendarReminderWatcher(ctx: AppContext): Watcher {
  const reader = createCalendarReader(ctx);
  return {
    type: "Calendar",
    async check(deps, watched) {
      const fired: Notification[] = [];
      // Addresses people typed may be slow: widgets not reached in this pass are in the next.
      const deadline = performance.now() + (deps.passBudgetMs ?? DEFAULT_PASS_BUDGET_MS) / 2;
      for (const widget of watched as WatchedWidget<CalendarConfig>[]) {
        if (performance.now() > deadline) break;
        const minutes = widget.config.remindMinutesBefore!;
        const query = calendarWidget.data.visitorQuery(widget.config);
        if (!query) continue;
        const now = deps.clock();
        const { events, errors } = await reader.read(
          query,
          { widgetId: widget.id, ownerId: widget.userId },
          now,
        );
        if (errors.length > 0)
          deps.log.debug(
            { widgetId: widget.id, failed: errors.length },
            "calendar reminders: sources failed",
          );
        const due = events.filter((event) => {
          const start = Date.parse(event.start);
          return !event.allDay && start > now && start - minutes * 60_000 <= now;
        });
        if (due.length > 0) fired.push(...(await remind(deps, widget, minutes, due)));
      }
      return fired;
    },
  };
}

async function remind(deps: WatchDeps, widget: WatchedWidget, minutes: number, due: CalendarEvent[]) {
  return deps.database.db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const fired: Notification[] = [];
    for (const event of due) {
      const inMinutes = Math.max(0, Math.round((Date.parse(event.start) - deps.clock()) / 60_000));
      const notification = await recordAlert(tx, deps.queue, deps.notifications, {
        userId: widget.userId,
        widgetId: widget.id,
        key: `${widget.id}:calendar:${event.sourceId}:${event.id}:${event.start}:${minutes}`,
        text: startsText(event.title || serverText("alerts.starts.untitledEvent"), inMinutes),
      });
      if (notification) fired.push(notification);
    }
    return fired;
  });
}
