import { describe, expect, it } from "vitest";
import { labelName, mailDate, senderName, sortLabels } from "./logic";
import { mailDocument } from "./MessageDialog";

describe("inbox shaping", () => {
  it("dates mail by how old it is, in the user's zone and hour format", () => {
    const now = Date.parse("2026-03-05T12:00:00Z");
    const berlin24 = { timezone: "Europe/Berlin", hourFormat: "24" as const };
    expect(mailDate("2026-03-05T07:15:00Z", now, berlin24, "en-GB")).toBe("08:15");
    expect(
      mailDate("2026-03-05T07:15:00Z", now, { timezone: "America/New_York", hourFormat: "12" }, "en-US"),
    ).toBe("2:15 AM");
    expect(mailDate("2026-03-03T07:15:00Z", now, berlin24, "en-GB")).toBe("Tue");
    expect(mailDate("2026-01-20T07:15:00Z", now, berlin24, "en-GB")).toBe("20 Jan");
    expect(mailDate("2025-01-20T07:15:00Z", now, berlin24, "en-GB")).toBe("20 Jan 2025");
  });

  it("names labels and senders", () => {
    expect(labelName({ id: "INBOX", name: "INBOX", type: "system" })).toBe("Inbox");
    expect(labelName({ id: "Label_7", name: "Work Stuff", type: "user" })).toBe("Work Stuff");
    const sorted = sortLabels([
      { id: "Label_2", name: "b", type: "user" },
      { id: "CHAT", name: "CHAT", type: "system" },
      { id: "UNREAD", name: "UNREAD", type: "system" },
      { id: "Label_1", name: "a", type: "user" },
      { id: "INBOX", name: "INBOX", type: "system" },
    ]);
    expect(sorted.map((l) => l.id)).toEqual(["INBOX", "UNREAD", "Label_1", "Label_2"]);
    expect(senderName({ name: " Ada ", email: "a@x.test" })).toBe("Ada");
    expect(senderName({ name: "", email: "a@x.test" })).toBe("a@x.test");
    expect(senderName({ name: "", email: "" })).toBe("Unknown sender");
  });

  it("wraps mail HTML in a document that allows no scripts or remote loads but https images", () => {
    const doc = mailDocument("<p>Hello</p>");
    expect(doc).toContain("<body><p>Hello</p></body>");
    expect(doc).toContain("default-src 'none'");
    expect(doc).toContain("img-src https: data:");
    expect(doc).not.toContain("script-src");
    expect(doc).toContain('<base target="_blank">');
  });
});
