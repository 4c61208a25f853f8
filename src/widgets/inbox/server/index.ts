import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { newMailWatcher } from "./new-mail.js";

export default defineWidgetServer({
  watchers: ({ providers }) => [newMailWatcher(providers)],
});
