import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import {
  CalendarEventSchema,
  CalendarSchema,
  EventListSchema,
  MailLabelSchema,
  MailMessageSchema,
  MailPageSchema,
  NewEventBody,
} from "../../../contract/data.js";
import { errorResponses } from "../../http/schemas.js";
import type { ProviderServices } from "../client.js";
import { IntString, intParam, listParam, PageToken } from "../params.js";
import { CALENDAR_ID, createEvent, listCalendars, upcomingEvents } from "./calendar.js";
import { getMessage, listLabels, listMessages, MESSAGE_ID } from "./mail.js";

const tags = ["Providers"];
const LABEL_ID = /^[A-Za-z0-9_-]{1,100}$/;
const upstreamErrors = () => errorResponses(404, 502, 504);

/** Google mail and calendar data for the Inbox and Meetings widgets, under /api/providers/suite. */
export const suiteRoutes: FastifyPluginAsyncTypebox<ProviderServices> = async (app, services) => {
  app.get(
    "/api/providers/suite/mail/labels",
    {
      schema: {
        tags,
        summary: "The user's Gmail labels",
        response: { 200: Type.Array(MailLabelSchema), ...upstreamErrors() },
      },
    },
    async (request) => listLabels(services, await services.account(request.user.id, "suite")),
  );

  app.get(
    "/api/providers/suite/mail/messages",
    {
      schema: {
        tags,
        summary: "Messages carrying any of the chosen labels, newest first, one page at a time",
        querystring: Type.Object({
          labels: Type.Optional(
            Type.String({ maxLength: 1100, description: "comma-separated label ids; default INBOX" }),
          ),
          pageSize: Type.Optional(IntString("1 to 50, default 20")),
          pageToken: Type.Optional(PageToken),
        }),
        response: { 200: MailPageSchema, ...upstreamErrors() },
      },
    },
    async (request) => {
      const q = request.query;
      const labels = listParam(q.labels, "labels", LABEL_ID, 10);
      const pageSize = intParam(q.pageSize, "pageSize", 1, 50, 20);
      const row = await services.account(request.user.id, "suite");
      return listMessages(services, row, {
        labels: labels?.length ? labels : ["INBOX"],
        pageSize,
        pageToken: q.pageToken,
      });
    },
  );

  app.get(
    "/api/providers/suite/mail/messages/:id",
    {
      schema: {
        tags,
        summary: "One message with its body as sanitized HTML",
        params: Type.Object({ id: Type.String({ pattern: MESSAGE_ID.source }) }),
        response: { 200: MailMessageSchema, ...upstreamErrors() },
      },
    },
    async (request) =>
      getMessage(services, await services.account(request.user.id, "suite"), request.params.id),
  );

  app.get(
    "/api/providers/suite/calendars",
    {
      schema: {
        tags,
        summary: "The user's calendars",
        response: { 200: Type.Array(CalendarSchema), ...upstreamErrors() },
      },
    },
    async (request) => listCalendars(services, await services.account(request.user.id, "suite")),
  );

  app.get(
    "/api/providers/suite/events",
    {
      schema: {
        tags,
        summary: "Upcoming timed events across the chosen calendars, recurring events expanded",
        querystring: Type.Object({
          calendars: Type.Optional(
            Type.String({ maxLength: 5200, description: "comma-separated calendar ids; default all" }),
          ),
          days: Type.Optional(IntString("how far ahead, 1 to 60 days, default 7")),
          limit: Type.Optional(IntString("1 to 250, default 50")),
        }),
        response: { 200: EventListSchema, ...upstreamErrors() },
      },
    },
    async (request) => {
      const q = request.query;
      const calendars = listParam(q.calendars, "calendars", CALENDAR_ID, 20);
      const days = intParam(q.days, "days", 1, 60, 7);
      const limit = intParam(q.limit, "limit", 1, 250, 50);
      const row = await services.account(request.user.id, "suite");
      return upcomingEvents(services, row, {
        calendars: calendars?.length ? calendars : undefined,
        days,
        limit,
      });
    },
  );

  app.post(
    "/api/providers/suite/events",
    {
      schema: {
        tags,
        summary: "Create a calendar event, optionally with a Google Meet link",
        body: NewEventBody,
        response: { 201: CalendarEventSchema, ...errorResponses(403, 404, 413, 415, 502, 504) },
      },
    },
    async (request, reply) => {
      const row = await services.account(request.user.id, "suite");
      return reply.code(201).send(await createEvent(services, row, request.body));
    },
  );
};
