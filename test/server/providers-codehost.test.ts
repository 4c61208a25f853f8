import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { FakeGithub, VIEWER_LOGIN } from "../fakes/github.js";
import { providersConfig, seedAccount } from "../fakes/oauth-accounts.js";
import { signedInClient, TestClient, uniqueEmail } from "../support/client.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";

describe.each(MODES)("codehost provider data (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let github: FakeGithub;

  beforeAll(async () => {
    github = await FakeGithub.start();
    mode = await prepareMode(modeName);
    built = await mode.start({
      providers: providersConfig({
        github: { api: github.url, token: github.url, authority: github.authority },
      }),
    });
  });
  afterAll(async () => {
    await mode.teardown();
    await github.server.close();
  });

  async function linked() {
    const client = new TestClient(built.app);
    await client.signUp("Ada Display Name", uniqueEmail("ada"));
    await seedAccount(built, client.user!.id, "codehost", github.authority);
    return client;
  }

  it("answers 404 account_not_connected when GitHub is not linked", async () => {
    const client = await signedInClient(built.app);
    for (const url of ["/api/providers/codehost/items", "/api/providers/codehost/contributions"]) {
      const res = await client.get(url);
      expect(res.status, url).toBe(404);
      expect(res.body.code).toBe("account_not_connected");
    }
  });

  it("lists open issues assigned to or authored by the user with one search per page", async () => {
    const client = await linked();
    const before = github.server.requests.length;
    const res = await client.get("/api/providers/codehost/items?perPage=20");
    expect(res.status).toBe(200);
    expect(github.server.requests.length - before).toBe(1);
    expect(res.body).toMatchObject({
      totalCount: 45,
      page: 1,
      perPage: 20,
      hasMore: true,
      incompleteResults: false,
    });
    expect(res.body.items).toHaveLength(20);
    expect(res.body.items[0]).toEqual({
      id: 1000,
      number: 1,
      title: "Issue 0",
      repository: "octo/beta",
      url: "https://github.com/octo/beta/issues/1",
      state: "open",
      draft: false,
      isPullRequest: false,
      author: VIEWER_LOGIN,
      labels: [{ name: "bug", color: "d73a4a" }],
      comments: 2,
      createdAt: "2026-01-10T10:00:00.000Z",
      updatedAt: "2026-01-20T10:00:00.000Z",
    });
    const sent = github.server.calls("/search/issues").at(-1)!;
    expect(sent.query.get("q")).toBe("is:open is:issue archived:false (assignee:@me OR author:@me)");
    expect(sent.query.get("sort")).toBe("updated");

    const last = await client.get("/api/providers/codehost/items?perPage=20&page=3");
    expect(last.body.items).toHaveLength(5);
    expect(last.body.hasMore).toBe(false);
  });

  it("lists pull requests and filters by repository", async () => {
    const client = await linked();
    const prs = await client.get("/api/providers/codehost/items?type=pr");
    expect(prs.status).toBe(200);
    expect(prs.body.items).toHaveLength(5);
    expect(prs.body.items.every((i: { isPullRequest: boolean }) => i.isPullRequest)).toBe(true);
    expect(prs.body.items[0].draft).toBe(true);

    const alpha = await client.get("/api/providers/codehost/items?repos=octo/alpha&perPage=100");
    expect(alpha.body.items.every((i: { repository: string }) => i.repository === "octo/alpha")).toBe(true);
    expect(alpha.body.totalCount).toBe(22);
    expect(github.server.calls("/search/issues").at(-1)!.query.get("q")).toContain("(repo:octo/alpha)");
  });

  it("rejects query injection in repos and bad paging before calling GitHub", async () => {
    const client = await linked();
    const before = github.server.requests.length;
    for (const url of [
      "/api/providers/codehost/items?repos=octo/alpha%20is:closed",
      "/api/providers/codehost/items?repos=../x",
      "/api/providers/codehost/items?type=commit",
      "/api/providers/codehost/items?page=11",
      "/api/providers/codehost/items?perPage=101",
      "/api/providers/codehost/contributions?login=bad%20login",
      "/api/providers/codehost/contributions?login=-dash",
      "/api/providers/codehost/contributions?year=1999",
      "/api/providers/codehost/contributions?year=3000",
    ]) {
      const res = await client.get(url);
      expect(res.status, url).toBe(400);
    }
    expect(github.server.requests.length).toBe(before);
  });

  it("returns the contribution calendar of the connected account's own login by default", async () => {
    const client = await linked();
    const res = await client.get("/api/providers/codehost/contributions");
    expect(res.status).toBe(200);
    // The login comes from GitHub (viewer), never from the user's display name.
    expect(res.body.login).toBe(VIEWER_LOGIN);
    expect(res.body.days.length).toBeGreaterThanOrEqual(365);
    expect(res.body.days[1]).toEqual({
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      count: 1,
      level: 1,
    });
    expect(res.body.totalContributions).toBe(
      res.body.days.reduce((sum: number, d: { count: number }) => sum + d.count, 0),
    );
    const sent = github.server.calls("/graphql").at(-1)!.json();
    expect(sent.query).toContain("viewer {");
    expect(sent.variables.login).toBeUndefined();
  });

  it("returns another login's calendar for a given year, and 404 for an unknown login", async () => {
    const client = await linked();
    const res = await client.get("/api/providers/codehost/contributions?login=grace-h&year=2024");
    expect(res.status).toBe(200);
    expect(res.body.login).toBe("grace-h");
    expect(res.body.from).toBe("2024-01-01T00:00:00.000Z");
    expect(res.body.to).toBe("2024-12-31T23:59:59.000Z");
    expect(res.body.days[0].date).toBe("2024-01-01");
    expect(res.body.days.at(-1).date).toBe("2024-12-31");
    const sent = github.server.calls("/graphql").at(-1)!.json();
    expect(sent.variables.login).toBe("grace-h");

    const missing = await client.get("/api/providers/codehost/contributions?login=nobody-here");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("not_found");
  });
});
