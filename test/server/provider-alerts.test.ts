import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import type { Watcher } from "../../src/server/jobs/watch/pass.js";
import { createProviderServices } from "../../src/server/providers/client.js";
import { newMailWatcher } from "../../src/widgets/inbox/server/new-mail.js";
import { meetingReminderWatcher } from "../../src/widgets/meetings/server/reminders.js";
import { FakeGoogle } from "../fakes/google.js";
import { providersConfig, seedAccount } from "../fakes/oauth-accounts.js";
import { signedInClient, type TestClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";
import { watchPassOn } from "../support/watch-pass.js";

/** Past the provider data's freshness window (30 s): the next pass asks the fake again. */
const STALE_MS = 31_000;

describe.each(MODES)("meeting and new-mail alerts (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let google: FakeGoogle;
  const time = { offset: 0 };

  beforeAll(async () => {
    google = await FakeGoogle.start();
    mode = await prepareMode(modeName);
    built = await mode.start(
      {
        providers: providersConfig({
          google: { api: google.url, token: google.url, authority: google.authority },
        }),
      },
      { clock: () => Date.now() + time.offset },
    );
  });
  afterAll(async () => {
    await mode.teardown();
    await google.server.close();
  });

  async function linkedWith(widgetType: string, config: Record<string, unknown>) {
    const client = await signedInClient(built.app);
    await seedAccount(built, client.user!.id, "suite", google.authority);
    const dashboard = await client.post("/api/dashboards", { name: "Work" });
    const res = await client.post("/api/widgets", {
      dashboardId: dashboard.body.id,
      widgetType,
      height: 300,
      width: 300,
      positionX: 0,
      positionY: 0,
      config,
    });
    if (res.status !== 201) throw new Error(`widget: ${res.status} ${res.text}`);
    return { client, widgetId: res.body.id as string };
  }

  async function pass(
    client: TestClient,
    watcher: (services: ReturnType<typeof createProviderServices>) => Watcher,
  ) {
    const { fired } = await watchPassOn(built, [watcher(createProviderServices(built.ctx))]);
    return fired.filter((n) => n.userId === client.user!.id).map((n) => n.message);
  }

  it("reminds of a meeting once, within its lead time, and not of one that has begun", async () => {
    const soon = new Date(Date.now() + 5 * 60_000).toISOString();
    const later = new Date(Date.now() + 40 * 60_000).toISOString();
    const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
    google.events.push(
      {
        id: `retro${modeName}`,
        calendarId: "primary",
        status: "confirmed",
        summary: "Retro",
        start: { dateTime: soon },
        end: { dateTime: plus(soon, 1_800_000) },
      },
      {
        id: `plan${modeName}`,
        calendarId: "primary",
        status: "confirmed",
        summary: "Planning",
        start: { dateTime: later },
        end: { dateTime: plus(later, 1_800_000) },
      },
    );
    const { client, widgetId } = await linkedWith("Meetings", {
      calendars: ["primary"],
      remindMinutesBefore: 10,
    });
    const messages = await pass(client, meetingReminderWatcher);
    expect(messages).toEqual([expect.stringMatching(/^Retro starts in [45] min$/)]);
    // The same pass again: already reminded.
    expect(await pass(client, meetingReminderWatcher)).toEqual([]);
    // 35 minutes on (provider data refreshed): Planning is 5 minutes away; Retro has begun.
    time.offset += 35 * 60_000;
    expect(await pass(client, meetingReminderWatcher)).toEqual([
      expect.stringMatching(/^Planning starts in [45] min$/),
    ]);
    // Turning the reminder off stops the watching (the widget is no longer watched).
    time.offset -= 35 * 60_000;
    await client.put("/api/widgets", { id: widgetId, config: { calendars: ["primary"] } });
    expect(await pass(client, meetingReminderWatcher)).toEqual([]);
  });

  it("announces new unread mail once, after a first pass that only remembers", async () => {
    const { client } = await linkedWith("Inbox", { labels: ["INBOX"], notifyNewMail: true });
    // First sight: the mail already there is not news.
    expect(await pass(client, newMailWatcher)).toEqual([]);
    const newest = google.messages[0]!.internalDate;
    const arrive = (n: number, tag: string) =>
      google.messages.unshift(
        ...Array.from({ length: n }, (_, i) => ({
          id: `${tag}${modeName.replace("+", "")}${i}`.replace(/[^A-Za-z0-9]/g, ""),
          labels: ["INBOX", "UNREAD"],
          from: `"Linus" <linus${i}@example.test>`,
          subject: `Patch ${tag} ${i}`,
          snippet: "",
          internalDate: newest + 60_000 * (n - i),
        })),
      );
    arrive(1, "a");
    time.offset += STALE_MS;
    expect(await pass(client, newMailWatcher)).toEqual(["New mail from Linus: Patch a 0"]);
    time.offset += STALE_MS;
    expect(await pass(client, newMailWatcher)).toEqual([]);
    arrive(5, "b");
    time.offset += STALE_MS;
    expect(await pass(client, newMailWatcher)).toEqual(["5 new messages"]);
    google.messages.splice(0, 6);
  });
});
