import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import {
  CreatePushSubscriptionBody,
  DeletePushSubscriptionQuery,
  PushKeySchema,
  PushSubscriptionSchema,
  PushTestSchema,
} from "../../contract/push.js";
import { serverText } from "../../contract/server-text.js";
import type { Config } from "../config.js";
import type { AppContext } from "../context.js";
import type { Db } from "../db/client.js";
import { notFound } from "../http/errors.js";
import type { RateLimitRule } from "../http/rate-limit.js";
import { errorResponses } from "../http/schemas.js";
import { inRecipientLanguage } from "../i18n/recipients.js";
import type { SessionActor } from "../policies/actor.js";
import { enqueuePushes } from "./deliver.js";
import type { PushService } from "./service.js";
import {
  checkSubscription,
  deleteSubscription,
  listSubscriptions,
  saveSubscription,
  viewOf,
} from "./subscriptions.js";

const tags = ["Push"];
// A browser subscribes itself from the web app; API keys (scripts) have no browser to push to.
const session = { access: "session" } as const;

/** A test push goes to every device the user subscribed (up to 20): a button to press, not a loop. */
const testPushBudget = (config: Config): RateLimitRule => ({
  name: "push-test",
  key: (request) => request.user.id,
  limit: config.rateLimits.pushTestsPerHour,
  windowMs: 3_600_000,
  detail: "Too many test notifications; wait before sending another",
});

export const pushRoutes: FastifyPluginAsyncTypebox<AppContext & { push: PushService }> = async (app, ctx) => {
  const { database, push } = ctx;
  const inTransaction = <T>(work: (tx: Db) => Promise<T>) =>
    database.db.transaction((transaction) => work(transaction as unknown as Db));

  app.get(
    "/api/push/key",
    {
      schema: {
        tags,
        summary: "The VAPID public key browsers subscribe with (applicationServerKey)",
        response: { 200: PushKeySchema, ...errorResponses() },
      },
    },
    async () => ({ publicKey: (await push.identity()).publicKey }),
  );

  app.get(
    "/api/push/subscriptions",
    {
      config: session,
      schema: {
        tags,
        summary: "The caller's push subscriptions (the push service only; never the endpoint or keys)",
        response: { 200: Type.Array(Type.Ref(PushSubscriptionSchema)), ...errorResponses(403) },
      },
    },
    async (request) => (await listSubscriptions(database.db, request.user.id)).map(viewOf),
  );

  app.post(
    "/api/push/subscriptions",
    {
      config: session,
      schema: {
        tags,
        summary:
          "Subscribe this browser to push: 201 when new, 200 when the endpoint was known (keys updated; taken over from another user)",
        body: CreatePushSubscriptionBody,
        response: {
          200: Type.Ref(PushSubscriptionSchema),
          201: Type.Ref(PushSubscriptionSchema),
          ...errorResponses(403, 413, 415),
        },
      },
    },
    async (request, reply) => {
      checkSubscription(
        request.body,
        ctx.config.push.allowInsecureEndpoints,
        // The list as it stands (the admin page may change it), as the delivery's guard reads it.
        ctx.instanceSettings.allowList(),
      );
      const agent = request.headers["user-agent"];
      const { created, row } = await inTransaction((tx) =>
        saveSubscription(
          tx,
          { userId: request.user.id, sessionId: (request.actor as SessionActor).session.id },
          request.body,
          typeof agent === "string" ? agent.slice(0, 300) : null,
        ),
      );
      request.log.info({ service: viewOf(row).service, created }, "push subscription saved");
      return reply.code(created ? 201 : 200).send(viewOf(row));
    },
  );

  app.delete(
    "/api/push/subscriptions",
    {
      config: session,
      schema: {
        tags,
        summary: "Unsubscribe a browser (only the caller's own)",
        querystring: DeletePushSubscriptionQuery,
        response: { 200: Type.Object({ success: Type.Boolean() }), ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      // Another user's endpoint is as unknown as a made-up one (DESIGN section 2).
      if (!(await deleteSubscription(database.db, request.user.id, request.query.endpoint)))
        throw notFound("Push subscription");
      return { success: true };
    },
  );

  app.post(
    "/api/push/test",
    {
      config: { ...session, rateLimit: [testPushBudget(ctx.config)] },
      schema: {
        tags,
        summary:
          "Queue a test notification to each of the caller's push subscriptions (beyond DESIGN section 11)",
        response: { 202: PushTestSchema, ...errorResponses(403, 429) },
      },
    },
    async (request, reply) => {
      const queue = await push.queue();
      const subscriptions = await inTransaction(async (tx) =>
        enqueuePushes(tx, queue, request.user.id, {
          title: "Tessera",
          body: await inRecipientLanguage(tx, request.user.id, serverText("push.test")),
          url: "/",
          tag: `test:${Date.now()}`,
        }),
      );
      return reply.code(202).send({ subscriptions });
    },
  );
};
