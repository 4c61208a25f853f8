import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { NOTIFICATIONS_RETURNED } from "../../contract/notifications.js";
import { CreateNotificationBody, NotificationSchema } from "../../contract/resources.js";
import type { AppContext } from "../context.js";
import { errorResponses } from "../http/schemas.js";
import { notificationBudget } from "./service.js";

const tags = ["Notifications"];

export const notificationRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { notifications } = ctx;

  app.get(
    "/api/notifications",
    {
      schema: {
        tags,
        summary: `The ${NOTIFICATIONS_RETURNED} newest notifications, newest first`,
        response: { 200: Type.Array(Type.Ref(NotificationSchema)), ...errorResponses() },
      },
    },
    async (request) => notifications.latest(request.user.id),
  );

  app.post(
    "/api/notifications",
    {
      // The one write a `notifications:write` key may make (cron jobs, uptime monitors).
      config: { scope: "notifications:write", rateLimit: [notificationBudget(ctx.config)] },
      schema: {
        tags,
        summary: "Create a notification and deliver it in real time to the user's channel",
        body: CreateNotificationBody,
        response: { 201: Type.Ref(NotificationSchema), ...errorResponses(413, 415, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await notifications.create(request.user.id, request.body, request.log)),
  );

  app.delete(
    "/api/notifications",
    {
      schema: {
        tags,
        summary: "Delete all of the user's notifications",
        response: { 200: Type.Object({ success: Type.Boolean() }), ...errorResponses() },
      },
    },
    async (request) => {
      await notifications.clear(request.user.id);
      return { success: true };
    },
  );
};
