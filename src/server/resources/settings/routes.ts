import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { SettingsSchema, UpdateSettingsBody } from "../../../contract/resources.js";
import type { AppContext } from "../../context.js";
import { badRequest, found } from "../../http/errors.js";
import { errorResponses } from "../../http/schemas.js";
import { assertConfigSize, isForeignKeyViolation } from "../../http/validation.js";
import { mayChangeDashboard } from "../../policies/records.js";
import { listSettings, updateSettings } from "./queries.js";

const tags = ["Settings"];
const foreignDashboard = () =>
  badRequest("lastDashboardId must be one of your dashboards", [
    { path: "/lastDashboardId", message: "is not one of your dashboards" },
  ]);

export const settingsRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;

  app.get(
    "/api/settings",
    {
      schema: {
        tags,
        summary: "The user's settings (an array holding their one settings object)",
        response: { 200: Type.Array(Type.Ref(SettingsSchema)), ...errorResponses() },
      },
    },
    async (request) => listSettings(db, request.user.id),
  );

  app.put(
    "/api/settings",
    {
      schema: {
        tags,
        summary: "Update preferences, the last viewed dashboard or the onboarding flag",
        body: UpdateSettingsBody,
        response: { 200: Type.Ref(SettingsSchema), ...errorResponses(404, 413, 415) },
      },
    },
    async (request) => {
      const { lastDashboardId, config } = request.body;
      assertConfigSize(config);
      if (lastDashboardId && !(await mayChangeDashboard(db, request.actor, lastDashboardId)))
        throw foreignDashboard();
      try {
        return found(await updateSettings(db, request.user.id, request.body), "Settings");
      } catch (error) {
        // The dashboard was deleted between the check and the update.
        if (isForeignKeyViolation(error)) throw foreignDashboard();
        throw error;
      }
    },
  );
};
