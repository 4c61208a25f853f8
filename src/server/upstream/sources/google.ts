import { type Static, Type } from "@sinclair/typebox";
import { defineSource } from "../source.js";

/** Gmail REST v1 (https://developers.google.com/gmail/api/reference/rest). */
export const GmailLabels = defineSource(
  Type.Object({
    labels: Type.Optional(
      Type.Array(Type.Object({ id: Type.String(), name: Type.String(), type: Type.Optional(Type.String()) })),
    ),
  }),
);

export const GmailMessageList = defineSource(
  Type.Object({
    messages: Type.Optional(Type.Array(Type.Object({ id: Type.String() }))),
    nextPageToken: Type.Optional(Type.String()),
    resultSizeEstimate: Type.Optional(Type.Number()),
  }),
);

const GmailPart = Type.Recursive((Part) =>
  Type.Object({
    mimeType: Type.Optional(Type.String()),
    headers: Type.Optional(Type.Array(Type.Object({ name: Type.String(), value: Type.String() }))),
    body: Type.Optional(
      Type.Object({ data: Type.Optional(Type.String()), size: Type.Optional(Type.Number()) }),
    ),
    parts: Type.Optional(Type.Array(Part)),
  }),
);
export type GmailPartBody = Static<typeof GmailPart>;

export const GmailMessage = defineSource(
  Type.Object({
    id: Type.String(),
    threadId: Type.Optional(Type.String()),
    labelIds: Type.Optional(Type.Array(Type.String())),
    snippet: Type.Optional(Type.String()),
    internalDate: Type.Optional(Type.String()),
    payload: Type.Optional(GmailPart),
  }),
);
export type GmailMessageBody = Static<typeof GmailMessage.schema>;

/** Google Calendar API v3 (https://developers.google.com/calendar/api/v3/reference). */
export const GoogleCalendarList = defineSource(
  Type.Object({
    items: Type.Optional(
      Type.Array(
        Type.Object({
          id: Type.String(),
          summary: Type.Optional(Type.String()),
          summaryOverride: Type.Optional(Type.String()),
          primary: Type.Optional(Type.Boolean()),
          backgroundColor: Type.Optional(Type.String()),
          foregroundColor: Type.Optional(Type.String()),
          accessRole: Type.Optional(Type.String()),
          timeZone: Type.Optional(Type.String()),
        }),
      ),
    ),
    nextPageToken: Type.Optional(Type.String()),
  }),
);

const When = Type.Optional(
  Type.Object({ dateTime: Type.Optional(Type.String()), date: Type.Optional(Type.String()) }),
);
const GoogleEventSchema = Type.Object({
  id: Type.String(),
  status: Type.Optional(Type.String()),
  summary: Type.Optional(Type.String()),
  location: Type.Optional(Type.String()),
  htmlLink: Type.Optional(Type.String()),
  hangoutLink: Type.Optional(Type.String()),
  start: When,
  end: When,
  conferenceData: Type.Optional(
    Type.Object({
      entryPoints: Type.Optional(
        Type.Array(
          Type.Object({ entryPointType: Type.Optional(Type.String()), uri: Type.Optional(Type.String()) }),
        ),
      ),
    }),
  ),
});
export type GoogleEventBody = Static<typeof GoogleEventSchema>;

export const GoogleEvent = defineSource(GoogleEventSchema);
export const GoogleEventList = defineSource(
  Type.Object({ items: Type.Optional(Type.Array(GoogleEventSchema)) }),
);
