import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { meetingReminderWatcher } from "./reminders.js";

export default defineWidgetServer({
  watchers: ({ providers }) => [meetingReminderWatcher(providers)],
});
