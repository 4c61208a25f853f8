import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { AppContext } from "../../../server/context.js";
import { defineWidgetServer } from "../../../server/widgets/kit.js";
import { bookmarkConfigIssues } from "./config-issues.js";
import { iconRoutes } from "./routes.js";
import { statusRoutes } from "./status-routes.js";

const routes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  await iconRoutes(app, ctx);
  await statusRoutes(app, ctx);
};

export default defineWidgetServer({ routes, configIssues: bookmarkConfigIssues });
