import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { SettingsSchema, UpdateSettingsBody } from "../../../contract/resources.js";
import type { AppContext } from "../../context.js";
import { badRequest, found } from "../../http/errors.js";
import { errorResponses } from "../../http/schemas.js";
import { assertConfigSize, isForeignKeyViolation } from "../../http/validation.js";
import { assertConfigQuota, lockUserQuota } from "../../policies/limits.js";
import { mayReadDashboard } from "../../policies/records.js";
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
      if (lastDashboardId && !(await mayReadDashboard(db, request.actor, lastDashboardId)))
        throw foreignDashboard();
      try {
        const userId = request.user.id;
        if (config === undefined) return found(await updateSettings(db, userId, request.body), "Settings");
        // A new config counts against the user's configuration quota, checked before it commits.
        return found(
          await db.transaction(async (transaction) => {
            const tx = transaction as unknown as typeof db;
            await lockUserQuota(tx, userId);
            const updated = await updateSettings(tx, userId, request.body);
            await assertConfigQuota(tx, userId, ctx.config.limits);
            return updated;
          }),
          "Settings",
        );
      } catch (error) {
        // The dashboard was deleted between the check and the update.
        if (isForeignKeyViolation(error)) throw foreignDashboard();
        throw error;
      }
    },
  );
};
