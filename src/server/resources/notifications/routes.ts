import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { uuidv7 } from "uuidv7";
import {
  NOTIFICATION_CREATED,
  NOTIFICATIONS_RETURNED,
  userChannel,
} from "../../../contract/notifications.js";
import {
  CreateNotificationBody,
  type Notification,
  NotificationSchema,
} from "../../../contract/resources.js";
import type { AppContext } from "../../context.js";
import { ProblemError } from "../../http/errors.js";
import { errorResponses } from "../../http/schemas.js";

const tags = ["Notifications"];

export const notificationRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { notifications, bus, limiter, config } = ctx;
  app.addHook("onRequest", ctx.authenticate);

  app.get(
    "/api/notifications",
    {
      schema: {
        tags,
        summary: `The ${NOTIFICATIONS_RETURNED} newest notifications, newest first`,
        response: { 200: Type.Array(Type.Ref(NotificationSchema)), ...errorResponses() },
      },
    },
    async (request) => notifications.latest(request.user.id, NOTIFICATIONS_RETURNED),
  );

  app.post(
    "/api/notifications",
    {
      schema: {
        tags,
        summary: "Create a notification and deliver it in real time to the user's channel",
        body: CreateNotificationBody,
        response: { 201: Type.Ref(NotificationSchema), ...errorResponses(413, 415, 429) },
      },
    },
    async (request, reply) => {
      const userId = request.user.id;
      if (config.rateLimitEnabled) {
        const { notificationsPerUser, notificationsWindowMs } = config.rateLimits;
        const verdict = await limiter.hit(
          `notifications:${userId}`,
          notificationsPerUser,
          notificationsWindowMs,
        );
        if (!verdict.allowed) {
          throw new ProblemError(429, "rate_limited", "Too many notifications; slow down", {
            retryAfterSeconds: verdict.retryAfterMs / 1000,
          });
        }
      }
      const notification: Notification = {
        id: uuidv7(),
        userId,
        type: request.body.type,
        message: request.body.message,
        createdAt: new Date().toISOString(),
      };
      // Stored first, then published: a subscriber that reconnects can always replay what it was sent.
      await notifications.add(notification);
      try {
        await bus.publish(userChannel(userId), {
          event: NOTIFICATION_CREATED,
          data: notification,
          id: notification.id,
        });
      } catch (error) {
        // The notification is stored; open streams catch up from the store on their next reconnect.
        request.log.warn({ err: error }, "realtime publish failed");
      }
      return reply.code(201).send(notification);
    },
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
