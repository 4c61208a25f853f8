import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { statusCheckWatcher } from "./checks.js";
import { statusRoutes } from "./routes.js";

export default defineWidgetServer({
  routes: statusRoutes,
  watchers: ({ ctx }) => [statusCheckWatcher(ctx.upstream)],
});
