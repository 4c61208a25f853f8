import { describe, expect, it } from "vitest";
import { inboxWidget } from "./inbox.js";

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
