import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { MarkReadBody, ReadMarkSchema } from "../../contract/notification-read.js";
import {
  NOTIFICATION_DISMISSED,
  NOTIFICATIONS_CLEARED,
  NOTIFICATIONS_READ,
  NOTIFICATIONS_RETURNED,
} from "../../contract/notifications.js";
import { CreateNotificationBody, NotificationSchema, Uuid } from "../../contract/resources.js";
import type { AppContext } from "../context.js";
import { badRequest, found } from "../http/errors.js";
import { errorResponses } from "../http/schemas.js";
import { isPastNotificationId, readMark } from "./read-mark.js";
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
        description: `The user's open streams get \`${NOTIFICATIONS_CLEARED}\` \`{}\`.`,
        response: { 200: Type.Object({ success: Type.Boolean() }), ...errorResponses() },
      },
    },
    async (request) => {
      await notifications.dismissAll(request.user.id, request.log);
      return { success: true };
    },
  );

  // The read mark and single dismissal: beyond the spec's three, so API keys need `read`/`write`
  // for them; a `notifications:write` key (a script that posts) can neither read nor dismiss.
  app.get(
    "/api/notifications/read",
    {
      schema: {
        tags,
        summary: "The read mark: every notification with an id up to `readUpTo` is read, on every device",
        response: { 200: ReadMarkSchema, ...errorResponses() },
      },
    },
    async (request) => ({ readUpTo: await readMark(ctx.database.db, request.user.id) }),
  );

  app.put(
    "/api/notifications/read",
    {
      schema: {
        tags,
        summary: "Mark every notification up to an id read, for the user on every device",
        description: `Notification ids are UUIDv7, so id order is time order: \`upTo\` and every older notification become read, and ones created later are unread. The mark only moves forward: an \`upTo\` older than the stored mark changes nothing and the answer is the stored mark, so two devices marking at once cannot make anything unread again. An id that is not a UUIDv7 or lies in the future is 400. When the mark moves, the user's open streams get \`${NOTIFICATIONS_READ}\` \`{readUpTo}\`.`,
        body: MarkReadBody,
        response: { 200: ReadMarkSchema, ...errorResponses(413, 415) },
      },
    },
    async (request) => {
      const { upTo } = request.body;
      if (!isPastNotificationId(upTo, ctx.clock()))
        throw badRequest("upTo must be a notification id: a UUIDv7 that is not in the future", [
          { path: "/upTo", message: "must be a UUIDv7 notification id, not in the future" },
        ]);
      return { readUpTo: await notifications.markRead(ctx.database.db, request.user.id, upTo, request.log) };
    },
  );

  app.delete(
    "/api/notifications/:id",
    {
      schema: {
        tags,
        summary: "Dismiss one notification",
        description: `Deletes it and answers it; 404 when the user has no notification with that id. The user's open streams get \`${NOTIFICATION_DISMISSED}\` \`{id}\`.`,
        params: Type.Object({ id: Uuid }),
        response: { 200: Type.Ref(NotificationSchema), ...errorResponses(404) },
      },
    },
    async (request) =>
      found(await notifications.dismiss(request.user.id, request.params.id, request.log), "Notification"),
  );
};
