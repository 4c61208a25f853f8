import { type FakeRequest, ProviderFake, TokenAuthority, type TokenCheck } from "./oauth-http.js";

/**
 * Gmail v1 and Calendar v3 as documented (developers.google.com/gmail/api/reference/rest,
 * developers.google.com/calendar/api/v3/reference), with fixed fixtures, plus the OAuth token
 * endpoint at /token. Every API call must carry an access token the endpoint issued.
 */

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64url");

export const MALICIOUS_HTML = `<div onclick="steal()"><p>Hello <b>Ada</b></p>
<script>alert('x')</script><style>body{background:url(https://evil.test/track)}</style>
<img src="x" onerror="alert(1)"><img src="http://insecure.test/pixel.png" alt="plain-http">
<img src="https://cdn.example.test/logo.png" alt="logo">
<a href="javascript:alert(1)">bad link</a> <a href="https://example.test/read" onmouseover="x()">good link</a>
<iframe src="https://evil.test/frame"></iframe><form action="https://evil.test/post"><input name="q"></form>
<span style="color: red; background-image: url(https://evil.test/bg)">styled</span></div>`;

export interface FakeMessage {
  id: string;
  labels: string[];
  from: string;
  subject: string;
  snippet: string;
  internalDate: number;
  html?: string;
  text?: string;
}

function buildMessages(): FakeMessage[] {
  const base = Date.UTC(2026, 0, 31, 12, 0, 0);
  const out: FakeMessage[] = [];
  for (let i = 0; i < 45; i++) {
    out.push({
      id: (0x18d0000000000000n + BigInt(i)).toString(16),
      labels: i % 3 === 0 ? ["INBOX", "UNREAD"] : i % 5 === 0 ? ["Label_7"] : ["INBOX"],
      from: i % 2 ? `"Grace Hopper" <grace${i}@navy.test>` : `ada${i}@example.test`,
      subject: `Subject ${i}`,
      snippet: `Snippet ${i} &amp; more &#39;quoted&#39;`,
      internalDate: base - i * 60_000,
      html: i === 0 ? MALICIOUS_HTML : undefined,
      text: i === 1 ? "Plain <text> body\n\nsecond paragraph" : undefined,
    });
  }
  return out;
}

const LABELS = [
  { id: "INBOX", name: "INBOX", type: "system" },
  { id: "UNREAD", name: "UNREAD", type: "system" },
  { id: "Label_7", name: "Work Stuff", type: "user" },
];

interface FakeEvent {
  id: string;
  calendarId: string;
  status: string;
  summary: string;
  start: { dateTime?: string; date?: string };
  end: { dateTime?: string; date?: string };
  recurringEventId?: string;
  hangoutLink?: string;
  location?: string;
  conferenceData?: unknown;
}

export class FakeGoogle extends ProviderFake {
  readonly messages = buildMessages();
  readonly events: FakeEvent[] = [];
  /** Failing a request by path prefix (e.g. make one message fetch 500). */
  brokenPaths = new Set<string>();

  constructor(authority: TokenAuthority, check?: TokenCheck) {
    super(authority, check);
    const hour = 3_600_000;
    const at = (h: number) => new Date(Date.now() + h * hour).toISOString();
    for (let day = 0; day < 3; day++) {
      // A daily recurring event, expanded as singleEvents=true does.
      this.events.push({
        id: `standup_${day}`,
        calendarId: "primary",
        status: "confirmed",
        summary: "Standup",
        recurringEventId: "standup",
        start: { dateTime: at(2 + day * 24) },
        end: { dateTime: at(2.25 + day * 24) },
      });
    }
    this.events.push(
      {
        id: "allday",
        calendarId: "primary",
        status: "confirmed",
        summary: "Holiday",
        start: { date: "2030-01-01" },
        end: { date: "2030-01-02" },
      },
      {
        id: "cancelled",
        calendarId: "primary",
        status: "cancelled",
        summary: "Cancelled",
        start: { dateTime: at(3) },
        end: { dateTime: at(4) },
      },
      {
        id: "review",
        calendarId: "team@group.calendar.google.com",
        status: "confirmed",
        summary: "Design review",
        location: "Room 1",
        hangoutLink: "https://meet.google.com/aaa-bbbb-ccc",
        start: { dateTime: at(1) },
        end: { dateTime: at(1.5) },
      },
      {
        id: "past",
        calendarId: "primary",
        status: "confirmed",
        summary: "Yesterday",
        start: { dateTime: at(-24) },
        end: { dateTime: at(-23) },
      },
    );
  }

  static start(options: { authorize?: TokenCheck } = {}) {
    return new FakeGoogle(new TokenAuthority("google", "post"), options.authorize).listen();
  }

  protected async handleApi(req: FakeRequest) {
    if (!(await this.authorized(req))) {
      return {
        status: 401,
        json: { error: { code: 401, message: "Request had invalid authentication credentials." } },
      };
    }
    for (const broken of this.brokenPaths) if (req.path.startsWith(broken)) return { status: 500, json: {} };
    const gmail = "/gmail/v1/users/me";
    if (req.path === `${gmail}/labels`) return { json: { labels: LABELS } };
    if (req.path === `${gmail}/messages`) return this.listMessages(req);
    if (req.path.startsWith(`${gmail}/messages/`))
      return this.getMessage(req, req.path.slice(gmail.length + 10));
    if (req.path === "/calendar/v3/users/me/calendarList") return this.calendarList(req);
    const events = /^\/calendar\/v3\/calendars\/([^/]+)\/events$/.exec(req.path);
    if (events) {
      const calendarId = decodeURIComponent(events[1]!);
      return req.method === "POST" ? this.createEvent(req, calendarId) : this.listEvents(req, calendarId);
    }
    return { status: 404, json: { error: { code: 404, message: "Not Found" } } };
  }

  private matches(m: FakeMessage, req: FakeRequest) {
    const labelIds = req.query.getAll("labelIds");
    const q = req.query.get("q");
    if (q) {
      // Only the union form we send: {in:inbox label:work-stuff}
      const terms = /^\{(.*)\}$/.exec(q)?.[1]?.split(" ") ?? [];
      const labelFor: Record<string, string> = {
        "in:inbox": "INBOX",
        "is:unread": "UNREAD",
        "label:work-stuff": "Label_7",
      };
      return terms.some((t) => m.labels.includes(labelFor[t] ?? "?"));
    }
    return labelIds.every((l) => m.labels.includes(l));
  }

  private listMessages(req: FakeRequest) {
    const max = Number(req.query.get("maxResults") ?? 100);
    const offset = Number((req.query.get("pageToken") ?? "o0").slice(1));
    const all = this.messages.filter((m) => this.matches(m, req));
    const page = all.slice(offset, offset + max);
    return {
      json: {
        messages: page.map((m) => ({ id: m.id, threadId: m.id })),
        ...(offset + max < all.length ? { nextPageToken: `o${offset + max}` } : {}),
        resultSizeEstimate: all.length,
      },
    };
  }

  private getMessage(req: FakeRequest, id: string) {
    const m = this.messages.find((x) => x.id === id);
    if (!m)
      return { status: 404, json: { error: { code: 404, message: "Requested entity was not found." } } };
    const headers = [
      { name: "From", value: m.from },
      { name: "To", value: "me@example.test" },
      { name: "Subject", value: m.subject },
      { name: "Date", value: new Date(m.internalDate).toUTCString() },
    ];
    const common = {
      id: m.id,
      threadId: m.id,
      labelIds: m.labels,
      snippet: m.snippet,
      internalDate: String(m.internalDate),
    };
    if (req.query.get("format") === "metadata") {
      const wanted = req.query.getAll("metadataHeaders").map((h) => h.toLowerCase());
      return {
        json: {
          ...common,
          payload: {
            mimeType: "multipart/alternative",
            headers: headers.filter((h) => wanted.includes(h.name.toLowerCase())),
          },
        },
      };
    }
    const textPart = {
      partId: "0.0",
      mimeType: "text/plain",
      body: { size: 10, data: b64(m.text ?? `Text of ${m.subject}`) },
    };
    const parts = m.html
      ? [textPart, { partId: "0.1", mimeType: "text/html", body: { size: m.html.length, data: b64(m.html) } }]
      : [textPart];
    return {
      json: {
        ...common,
        payload: {
          mimeType: "multipart/mixed",
          headers,
          body: { size: 0 },
          parts: [{ partId: "0", mimeType: "multipart/alternative", body: { size: 0 }, parts }],
        },
      },
    };
  }

  private calendarList(req: FakeRequest) {
    const first = [
      {
        id: "primary",
        summary: "me@example.test",
        primary: true,
        backgroundColor: "#9fe1e7",
        foregroundColor: "#000000",
        accessRole: "owner",
        timeZone: "Europe/Berlin",
      },
    ];
    const second = [
      {
        id: "team@group.calendar.google.com",
        summary: "Team",
        backgroundColor: "#f83a22",
        foregroundColor: "#000000",
        accessRole: "reader",
        timeZone: "UTC",
      },
    ];
    return req.query.get("pageToken") === "cal2"
      ? { json: { kind: "calendar#calendarList", items: second } }
      : { json: { kind: "calendar#calendarList", items: first, nextPageToken: "cal2" } };
  }

  private listEvents(req: FakeRequest, calendarId: string) {
    if (!["primary", "team@group.calendar.google.com"].includes(calendarId)) {
      return { status: 404, json: { error: { code: 404, message: "Not Found" } } };
    }
    // As Google: ordering by start time is only allowed on expanded (single) events.
    if (req.query.get("orderBy") === "startTime" && req.query.get("singleEvents") !== "true") {
      return {
        status: 400,
        json: { error: { code: 400, message: "The requested ordering is not available." } },
      };
    }
    const timeMin = Date.parse(req.query.get("timeMin") ?? "");
    const timeMax = Date.parse(req.query.get("timeMax") ?? "") || Number.POSITIVE_INFINITY;
    const max = Number(req.query.get("maxResults") ?? 250);
    const items = this.events
      .filter((e) => e.calendarId === calendarId)
      // As Google: cancelled events only with showDeleted=true.
      .filter((e) => e.status !== "cancelled" || req.query.get("showDeleted") === "true")
      .filter((e) => {
        const end = Date.parse(e.end.dateTime ?? e.end.date!);
        const start = Date.parse(e.start.dateTime ?? e.start.date!);
        return end > timeMin && start < timeMax;
      })
      .sort((a, b) => (a.start.dateTime ?? a.start.date!).localeCompare(b.start.dateTime ?? b.start.date!))
      .slice(0, max)
      .map(({ calendarId: _c, ...e }) => ({
        kind: "calendar#event",
        htmlLink: `https://calendar.google.com/event?eid=${e.id}`,
        ...e,
      }));
    return { json: { kind: "calendar#events", summary: calendarId, items } };
  }

  private createEvent(req: FakeRequest, calendarId: string) {
    const body = req.json();
    if (!body.summary || !body.start?.dateTime || !body.end?.dateTime)
      return { status: 400, json: { error: { code: 400 } } };
    const event: FakeEvent = {
      id: `created${this.events.length}`,
      calendarId,
      status: "confirmed",
      summary: body.summary,
      location: body.location,
      start: body.start,
      end: body.end,
    };
    const wantsMeet =
      req.query.get("conferenceDataVersion") === "1" &&
      body.conferenceData?.createRequest?.conferenceSolutionKey?.type === "hangoutsMeet" &&
      typeof body.conferenceData?.createRequest?.requestId === "string";
    if (wantsMeet) {
      event.hangoutLink = "https://meet.google.com/new-meet-xyz";
      event.conferenceData = {
        entryPoints: [{ entryPointType: "video", uri: "https://meet.google.com/new-meet-xyz" }],
      };
    }
    this.events.push(event);
    const { calendarId: _c, ...rest } = event;
    return {
      json: {
        kind: "calendar#event",
        htmlLink: `https://calendar.google.com/event?eid=${event.id}`,
        ...rest,
      },
    };
  }
}
