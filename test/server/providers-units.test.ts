import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { contributionRange } from "../../src/server/providers/codehost/contributions.js";
import { blocksToMarkdown, type NotionBlock } from "../../src/server/providers/notes/markdown.js";
import { decodeEntities, parseAddress } from "../../src/server/providers/suite/mail.js";
import { sanitizeEmailHtml } from "../../src/server/providers/suite/sanitize.js";
import { type ModeEnv, prepareMode } from "../support/modes.js";

const rt = (plain_text: string, extra: Record<string, unknown> = {}) => ({ plain_text, ...extra });
const block = (type: string, value: Record<string, unknown>, children?: NotionBlock[]): NotionBlock => ({
  id: "b",
  type,
  [type]: value,
  children,
});

describe("notion blocks to markdown", () => {
  it("escapes markdown in text and keeps annotations and safe links", () => {
    const md = blocksToMarkdown([
      block("paragraph", {
        rich_text: [
          rt("a *star* and [brackets] "),
          rt("bold", { annotations: { bold: true } }),
          rt(" "),
          rt("code`tick", { annotations: { code: true } }),
          rt(" "),
          rt("x", { href: "data:text/html,evil" }),
        ],
      }),
    ]);
    expect(md).toBe("a \\*star\\* and \\[brackets\\] **bold** `code'tick` x");
  });

  it("renders callouts, tables, images (https only), equations and nested quotes", () => {
    const md = blocksToMarkdown([
      block("callout", { rich_text: [rt("Note")], icon: { type: "emoji", emoji: "💡" } }),
      block("table", { table_width: 2 }, [
        block("table_row", { cells: [[rt("a")], [rt("b|c")]] }),
        block("table_row", { cells: [[rt("1")], [rt("2")]] }),
      ]),
      block("image", { type: "external", external: { url: "https://img.test/a.png" }, caption: [rt("cap")] }),
      block("image", { type: "external", external: { url: "http://img.test/a.png" }, caption: [] }),
      block("equation", { expression: "e=mc^2" }),
      block("quote", { rich_text: [rt("outer")] }, [block("paragraph", { rich_text: [rt("inner")] })]),
      block("unsupported", {}),
    ]);
    expect(md).toBe(
      [
        "> 💡 Note",
        "| a | b\\|c |\n| --- | --- |\n| 1 | 2 |",
        "![cap](<https://img.test/a.png>)",
        "$$\ne=mc^2\n$$",
        "> outer\n>\n> inner",
      ].join("\n\n"),
    );
  });

  it("fences code that itself contains a fence", () => {
    const md = blocksToMarkdown([block("code", { rich_text: [rt("```\nx\n```")], language: "plain text" })]);
    expect(md).toBe("~~~~\n```\nx\n```\n~~~~");
  });
});

describe("email sanitizing", () => {
  it("drops protocol-relative and data images, scripts in links, and url() in styles", () => {
    const html = sanitizeEmailHtml(
      '<img src="//evil.test/a.png"><img src="data:image/png;base64,AAAA"><a href="JaVaScRiPt:x">a</a>' +
        '<p style="color: url(x); font-weight: bold">p</p><svg><script>x</script></svg><object data="x"></object>',
    );
    expect(html).toBe('<a target="_blank" rel="noopener noreferrer">a</a><p style="font-weight:bold">p</p>');
  });

  it("keeps only absolute https and cid: images: relative and http sources are dropped", () => {
    const html = sanitizeEmailHtml(
      '<img src="/api/accounts?x=1"><img src="track.png"><img src="http://tracker.test/p.gif">' +
        '<img src=" https://cdn.example/logo.png " alt="logo"><img src="cid:part1@example">',
    );
    expect(html).toBe('<img alt="logo" src="https://cdn.example/logo.png" /><img src="cid:part1@example" />');
  });

  it("drops data:, javascript:, protocol-relative and scheme-less images", () => {
    const html = sanitizeEmailHtml(
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt="a"><img src="javascript:alert(1)" alt="b">' +
        '<img src="//tracker.test/p.gif" alt="c"><img src="JaVaScRiPt:alert(1)" alt="d"><img src="https:/x" alt="e">' +
        '<img src="https://cdn.example/ok.png">',
    );
    // An image left without a source is dropped whole.
    expect(html).toBe('<img src="https://cdn.example/ok.png" />');
  });
});

describe("mail helpers", () => {
  it("parses addresses and decodes snippet entities", () => {
    expect(parseAddress('"Lovelace, Ada" <ada@example.test>')).toEqual({
      name: "Lovelace, Ada",
      email: "ada@example.test",
    });
    expect(parseAddress("Ada <ada@example.test>")).toEqual({ name: "Ada", email: "ada@example.test" });
    expect(parseAddress("ada@example.test")).toEqual({ name: "", email: "ada@example.test" });
    expect(decodeEntities("a &lt;b&gt; &amp; &#39;c&#39; &#x1F600; &bogus;")).toBe("a <b> & 'c' 😀 &bogus;");
  });
});

describe("contribution range", () => {
  it("is the last 365 days by default and a calendar year (up to now) when asked", () => {
    const now = new Date("2026-06-15T12:00:00.000Z");
    const last = contributionRange(undefined, now);
    expect(last.to).toEqual(now);
    expect(now.getTime() - last.from.getTime()).toBe(365 * 86_400_000);
    expect(contributionRange(2024, now)).toEqual({
      from: new Date("2024-01-01T00:00:00.000Z"),
      to: new Date("2024-12-31T23:59:59.000Z"),
    });
    expect(contributionRange(2026, now).to).toEqual(now);
  });
});

describe("provider routes in the OpenAPI document", () => {
  let mode: ModeEnv;
  let built: BuiltApp;
  beforeAll(async () => {
    mode = await prepareMode("embedded");
    built = await mode.start();
  });
  afterAll(() => mode.teardown());

  it("documents the connect start and callback paths, every data endpoint and its errors", async () => {
    const doc = JSON.parse((await built.app.inject({ url: "/api/openapi.json" })).body);
    const op = (path: string, method = "get") => doc.paths[path]?.[method];
    expect(op("/api/providers/{provider}/connect").responses).toHaveProperty("302");
    expect(op("/api/auth/callback/{provider}").responses).toHaveProperty("302");
    for (const path of [
      "/api/providers/suite/mail/labels",
      "/api/providers/suite/mail/messages",
      "/api/providers/suite/mail/messages/{id}",
      "/api/providers/suite/calendars",
      "/api/providers/suite/events",
      "/api/providers/codehost/items",
      "/api/providers/codehost/contributions",
      "/api/providers/notes/pages",
      "/api/providers/notes/pages/{id}",
    ]) {
      expect(op(path)?.tags, path).toEqual(["Providers"]);
      expect(Object.keys(op(path).responses), path).toEqual(
        expect.arrayContaining(["200", "400", "401", "404", "502", "504"]),
      );
    }
    expect(Object.keys(op("/api/providers/suite/events", "post").responses)).toEqual(
      expect.arrayContaining(["201", "403", "404", "502", "504"]),
    );
    expect(op("/api/providers").tags).toEqual(["Providers"]);
    expect(op("/api/weather").tags).toEqual(["Weather"]);
    expect(Object.keys(op("/api/weather/search").responses)).toEqual(
      expect.arrayContaining(["200", "400", "502", "504"]),
    );
  });
});
