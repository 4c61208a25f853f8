import { Type } from "@sinclair/typebox";

const Iso = Type.String({ format: "date-time" });
const NullableString = Type.Union([Type.String(), Type.Null()]);

export const MailLabelSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.Union([Type.Literal("system"), Type.Literal("user")]),
});

const MailSummaryProps = {
  id: Type.String(),
  threadId: Type.String(),
  from: Type.Object({ name: Type.String(), email: Type.String() }),
  subject: Type.String(),
  snippet: Type.String({ description: "plain text" }),
  date: Iso,
  unread: Type.Boolean(),
  labels: Type.Array(Type.String(), { description: "Gmail label ids" }),
};

export const MailPageSchema = Type.Object({
  messages: Type.Array(Type.Object(MailSummaryProps)),
  nextPageToken: Type.Union([Type.String(), Type.Null()], { description: "pass as pageToken for more" }),
  resultSizeEstimate: Type.Integer(),
});

export const MailMessageSchema = Type.Object({
  ...MailSummaryProps,
  to: Type.String(),
  html: Type.String({
    description: "the body as sanitized HTML: no scripts, handlers, iframes or forms; https images only",
  }),
  webUrl: Type.String(),
});

export const CalendarSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  primary: Type.Boolean(),
  color: NullableString,
  foregroundColor: NullableString,
  accessRole: Type.String(),
  writable: Type.Boolean({ description: "events can be created in it (owner or writer)" }),
  timeZone: NullableString,
});

export const CalendarEventSchema = Type.Object({
  id: Type.String(),
  calendarId: Type.String(),
  title: Type.String(),
  start: Iso,
  end: Iso,
  location: NullableString,
  meetUrl: Type.Union([Type.String(), Type.Null()], { description: "video meeting link, if any" }),
  htmlLink: NullableString,
  status: Type.String(),
});

export const EventListSchema = Type.Object({
  events: Type.Array(CalendarEventSchema),
  from: Iso,
  until: Iso,
});

export const NewEventBody = Type.Object({
  calendarId: Type.String({ pattern: "^[A-Za-z0-9._%+#@:-]{1,255}$" }),
  title: Type.String({ minLength: 1, maxLength: 200, pattern: "\\S" }),
  start: Iso,
  end: Iso,
  location: Type.Optional(Type.String({ maxLength: 500 })),
  description: Type.Optional(Type.String({ maxLength: 8000 })),
  timeZone: Type.Optional(Type.String({ pattern: "^[A-Za-z_]+(?:/[A-Za-z0-9_+-]+){0,2}$|^UTC$" })),
  meet: Type.Optional(Type.Boolean({ description: "also create a Google Meet link" })),
});
