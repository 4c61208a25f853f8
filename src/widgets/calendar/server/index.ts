import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { calendarData } from "./data.js";
import { calendarReminderWatcher } from "./reminders.js";

export default defineWidgetServer({
  data: calendarData,
  watchers: ({ ctx }) => [calendarReminderWatcher(ctx)],
});
