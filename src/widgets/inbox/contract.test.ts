import { describe, expect, it } from "vitest";
import { inboxWidget } from "./contract.js";

const parse = inboxWidget.parse;

describe("Inbox config", () => {
  it("reads label ids", () => {
    expect(parse({ labels: ["INBOX", "Label_7"] })).toEqual({ labels: ["INBOX", "Label_7"] });
  });

  it("falls back to the inbox for missing, malformed or empty values", () => {
    expect(inboxWidget.defaults()).toEqual({ labels: ["INBOX"] });
    for (const raw of [
      null,
      "INBOX",
      [],
      {},
      { labels: "INBOX" },
      { labels: [] },
      { labels: [1, "a b", "x/y"] },
    ])
      expect(parse(raw)).toEqual(inboxWidget.defaults());
    expect(parse({ labels: ["UNREAD", "UNREAD", "bad label"] })).toEqual({ labels: ["UNREAD"] });
  });
});

describe("Inbox new-mail setting", () => {
  it("is watched only when notifyNewMail is true, and refuses a non-boolean", () => {
    const { parse, alerts } = inboxWidget;
    expect(alerts!.watched!(parse({ notifyNewMail: true }))).toBe(true);
    expect(alerts!.watched!(parse({ notifyNewMail: false }))).toBe(false);
    expect(alerts!.watched!(parse({}))).toBe(false);
    expect(alerts!.check({ notifyNewMail: "yes" })).toEqual([
      { path: "/notifyNewMail", message: "must be boolean" },
    ]);
    expect(alerts!.check({ notifyNewMail: true })).toEqual([]);
  });
});
