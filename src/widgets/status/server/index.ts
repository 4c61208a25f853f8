import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { statusCheckWatcher } from "./checks.js";
import { statusData, statusRoutes } from "./routes.js";

export default defineWidgetServer({
  data: statusData,
  routes: statusRoutes,
  watchers: ({ ctx }) => [statusCheckWatcher(ctx.upstream)],
});
