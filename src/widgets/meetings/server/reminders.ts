import type { Notification } from "../../../contract/resources.js";
import { serverText } from "../../../contract/server-text.js";
import { startsText } from "../../../contract/widget-kit/reminders.js";
import type { Db } from "../../../server/db/client.js";
import { ProblemError } from "../../../server/http/errors.js";
import { recordAlert } from "../../../server/jobs/record.js";
import type { WatchDeps, WatchedWidget, Watcher } from "../../../server/jobs/watch/pass.js";
import type { ProviderServices } from "../../../server/providers/client.js";
import { upcomingEvents } from "../../../server/providers/suite/calendar.js";
import type { MeetingsConfig } from "../contract.js";

/** The same window the Meetings widget asks for, so a pass reads its cached answer when a tab is open. */
const EVENTS = { days: 14, limit: 100 } as const;

/**
 * Meetings `remindMinutesBefore`: each pass reminds of every event of the widget's calendars that
 * starts within that many minutes and has not started yet. The once-only key names the event, its
 * start and the lead time, so a moved meeting or a changed lead time reminds again, a pass that
 * sees the same event twice does not, and a server that was down through the window stays quiet
 * about a meeting that has begun.
 */
export function meetingReminderWatcher(services: ProviderServices): Watcher {
  return {
    type: "Meetings",
    async check(deps, watched) {
      const fired: Notification[] = [];
      for (const widget of watched as WatchedWidget<MeetingsConfig>[]) {
        const minutes = widget.config.remindMinutesBefore!;
        const now = deps.clock();
        let events: Awaited<ReturnType<typeof upcomingEvents>>["events"];
        try {
          const row = await services.account(widget.userId, "suite");
          ({ events } = await upcomingEvents(services, row, {
            calendars: widget.config.calendars,
            ...EVENTS,
          }));
        } catch (error) {
          // Not connected, or the provider failing: this widget has nothing to remind of now.
          if (!(error instanceof ProblemError)) throw error;
          deps.log.debug({ widgetId: widget.id, code: error.code }, "meeting reminders: no events");
          continue;
        }
        const due = events.filter((event) => {
          const start = Date.parse(event.start);
          return event.status !== "cancelled" && start > now && start - minutes * 60_000 <= now;
        });
        if (due.length === 0) continue;
        fired.push(...(await remind(deps, widget, minutes, due)));
      }
      return fired;
    },
  };
}

async function remind(
  deps: WatchDeps,
  widget: WatchedWidget,
  minutes: number,
  due: { id: string; title: string; start: string }[],
) {
  return deps.database.db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const fired: Notification[] = [];
    for (const event of due) {
      const inMinutes = Math.max(0, Math.round((Date.parse(event.start) - deps.clock()) / 60_000));
      const notification = await recordAlert(tx, deps.queue, deps.notifications, {
        userId: widget.userId,
        widgetId: widget.id,
        key: `${widget.id}:meeting:${event.id}:${event.start}:${minutes}`,
        text: startsText(event.title || serverText("alerts.starts.untitledMeeting"), inMinutes),
      });
      if (notification) fired.push(notification);
    }
    return fired;
  });
}
