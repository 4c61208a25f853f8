import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { FakeNotion } from "../fakes/notion.js";
import { providersConfig, seedAccount } from "../fakes/oauth-accounts.js";
import { signedInClient } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";

describe.each(MODES)("notes provider data (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let notion: FakeNotion;

  beforeAll(async () => {
    notion = await FakeNotion.start();
    mode = await prepareMode(modeName);
    built = await mode.start({
      providers: providersConfig({
        notion: { api: notion.url, token: notion.url, authority: notion.authority },
      }),
    });
  });
  afterAll(async () => {
    await mode.teardown();
    await notion.server.close();
  });

  async function linked() {
    const client = await signedInClient(built.app);
    await seedAccount(built, client.user!.id, "notes", notion.authority);
    return client;
  }

  it("answers 404 account_not_connected when Notion is not linked", async () => {
    const client = await signedInClient(built.app);
    for (const url of ["/api/providers/notes/pages", `/api/providers/notes/pages/${notion.docId}`]) {
      const res = await client.get(url);
      expect(res.status, url).toBe(404);
      expect(res.body.code).toBe("account_not_connected");
    }
  });

  it("searches pages with cursor paging, newest first, with the Notion-Version header", async () => {
    const client = await linked();
    const first = await client.get("/api/providers/notes/pages?pageSize=20");
    expect(first.status).toBe(200);
    expect(first.body.pages).toHaveLength(20);
    expect(first.body.pages[0]).toEqual({
      id: notion.docId,
      title: "Project plan",
      url: expect.stringContaining("notion.so/Project-plan-"),
      icon: "📋",
      lastEditedAt: "2026-01-30T00:00:00.000Z",
      parentId: null,
    });
    expect(first.body.nextCursor).toBe(notion.pages[20]!.id);
    const second = await client.get(`/api/providers/notes/pages?pageSize=20&cursor=${first.body.nextCursor}`);
    expect(second.body.pages).toHaveLength(10);
    expect(second.body.nextCursor).toBeNull();
    const sent = notion.server.calls("/v1/search").at(-1)!;
    expect(sent.headers["notion-version"]).toBe("2022-06-28");
    expect(sent.json()).toMatchObject({
      filter: { property: "object", value: "page" },
      sort: { direction: "descending", timestamp: "last_edited_time" },
      page_size: 20,
      start_cursor: first.body.nextCursor,
    });

    const found = await client.get("/api/providers/notes/pages?q=plan");
    expect(found.body.pages.map((p: { title: string }) => p.title)).toEqual(["Project plan"]);
  });

  it("renders a page as Markdown: headings, lists, to-dos, quotes, code and safe links", async () => {
    const client = await linked();
    const res = await client.get(`/api/providers/notes/pages/${notion.docId}`);
    expect(res.status).toBe(200);
    expect(res.body.title).toBe("Project plan");
    expect(res.body.truncated).toBe(false);
    const md: string = res.body.markdown;
    expect(md).toContain("# Plan");
    expect(md).toContain("Read [the spec](<https://example.test/spec>) and **ship**");
    expect(md).toContain("- first\n   - nested\n- second");
    expect(md).toContain("1. one\n2. two");
    expect(md).toContain("- [x] done thing\n- [ ] open thing");
    expect(md).toContain("> quoted words");
    expect(md).toContain("```typescript\nconst x = 1;\n```");
    expect(md).toContain("---");
    expect(md).toContain("[Sub page](<https://www.notion.so/");
    expect(md).not.toContain("javascript:");
    expect(md).toContain("evil");
  });

  it("accepts ids without dashes, follows block pagination, and bounds nesting", async () => {
    const client = await linked();
    const long = await client.get(`/api/providers/notes/pages/${notion.longId.replace(/-/g, "")}`);
    expect(long.status).toBe(200);
    expect(long.body.markdown).toContain("Line 0");
    expect(long.body.markdown).toContain("Line 119");
    const longCalls = notion.server.calls(`/v1/blocks/${notion.longId}/children`);
    expect(longCalls.at(-1)!.query.get("start_cursor")).toBeTruthy();

    const deep = await client.get(`/api/providers/notes/pages/${notion.deepId}`);
    expect(deep.status).toBe(200);
    expect(deep.body.markdown).toContain("level 3");
    expect(deep.body.markdown).not.toContain("level 4");
    expect(deep.body.truncated).toBe(true);
  });

  it("answers 404 for an unknown page and 400 for a malformed id without calling Notion", async () => {
    const client = await linked();
    const missing = await client.get("/api/providers/notes/pages/00000000-0000-0000-0000-000000000000");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("not_found");
    const before = notion.server.requests.length;
    for (const url of [
      "/api/providers/notes/pages/not-an-id",
      "/api/providers/notes/pages/..%2F..%2Fv1%2Fusers",
      "/api/providers/notes/pages?cursor=a%20b",
      "/api/providers/notes/pages?pageSize=101",
    ]) {
      expect((await client.get(url)).status, url).toBe(400);
    }
    expect(notion.server.requests.length).toBe(before);
  });
});
