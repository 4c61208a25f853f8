import { randomUUID } from "node:crypto";
import { type FakeRequest, ProviderFake, TokenAuthority, type TokenCheck } from "./oauth-http.js";

/**
 * Notion's public API as documented (developers.notion.com/reference: search, retrieve a page,
 * retrieve block children), with fixtures, plus /token (Basic client auth, as Notion's).
 */

export const NOTION_VERSION = "2022-06-28";
export const NOTION_OWNER_ID = "6794760a-1f15-45cd-9c65-0dfe42f5135a";

/** users/me with a user-installed public integration's token: the bot, owned by the user. */
const NOTION_BOT = {
  object: "user",
  id: "9a3b5ae0-c6e6-482d-b0e1-ed315ee6dc57",
  type: "bot",
  name: "Tessera",
  bot: {
    owner: {
      type: "user",
      user: {
        object: "user",
        id: NOTION_OWNER_ID,
        name: "Ada in Notion",
        avatar_url: null,
        type: "person",
        person: { email: "ada@notion.test" },
      },
    },
    workspace_name: "Ada's workspace",
  },
};

const text = (content: string, extra: Record<string, unknown> = {}) => ({
  type: "text",
  text: { content, link: extra.href ? { url: extra.href } : null },
  annotations: {
    bold: false,
    italic: false,
    strikethrough: false,
    underline: false,
    code: false,
    color: "default",
    ...(extra.annotations as object),
  },
  plain_text: content,
  href: extra.href ?? null,
});

interface Block {
  object: "block";
  id: string;
  type: string;
  has_children: boolean;
  [key: string]: unknown;
}

const block = (
  type: string,
  value: Record<string, unknown>,
  children: Block[] = [],
): Block & { _children: Block[] } => ({
  object: "block",
  id: randomUUID(),
  type,
  has_children: children.length > 0,
  [type]: value,
  _children: children,
});

export class FakeNotion extends ProviderFake {
  readonly pages: { id: string; title: string; edited: string }[] = [];
  /** Block children by parent id. */
  readonly children = new Map<string, Block[]>();
  readonly docId: string;
  readonly longId: string;
  readonly deepId: string;

  constructor(authority: TokenAuthority, check?: TokenCheck) {
    super(authority, check);
    for (let i = 0; i < 30; i++) {
      this.pages.push({
        id: randomUUID(),
        title: i === 0 ? "Project plan" : `Note ${i}`,
        edited: new Date(Date.UTC(2026, 0, 30 - i)).toISOString(),
      });
    }
    this.docId = this.pages[0]!.id;
    this.longId = this.pages[1]!.id;
    this.deepId = this.pages[2]!.id;
    this.addBlocks(this.docId, [
      block("heading_1", { rich_text: [text("Plan")] }),
      block("paragraph", {
        rich_text: [
          text("Read "),
          text("the spec", { href: "https://example.test/spec" }),
          text(" and "),
          text("ship", { annotations: { bold: true } }),
        ],
      }),
      block("bulleted_list_item", { rich_text: [text("first")] }, [
        block("bulleted_list_item", { rich_text: [text("nested")] }),
      ]),
      block("bulleted_list_item", { rich_text: [text("second")] }),
      block("numbered_list_item", { rich_text: [text("one")] }),
      block("numbered_list_item", { rich_text: [text("two")] }),
      block("to_do", { rich_text: [text("done thing")], checked: true }),
      block("to_do", { rich_text: [text("open thing")], checked: false }),
      block("quote", { rich_text: [text("quoted words")] }),
      block("code", { rich_text: [text("const x = 1;")], language: "typescript" }),
      block("divider", {}),
      block("paragraph", { rich_text: [text("evil", { href: "javascript:alert(1)" })] }),
      block("child_page", { title: "Sub page" }),
    ]);
    // 120 blocks: two pages of block children at Notion's maximum page size of 100.
    this.addBlocks(
      this.longId,
      Array.from({ length: 120 }, (_, i) => block("paragraph", { rich_text: [text(`Line ${i}`)] })),
    );
    // Toggles nested 5 deep: deeper than we follow.
    let nested: Block & { _children: Block[] } = block("paragraph", { rich_text: [text("level 5")] });
    for (let level = 4; level >= 1; level--)
      nested = block("toggle", { rich_text: [text(`level ${level}`)] }, [nested]);
    this.addBlocks(this.deepId, [nested]);
  }

  private addBlocks(parent: string, blocks: (Block & { _children?: Block[] })[]) {
    this.children.set(
      parent,
      blocks.map(({ _children, ...b }) => {
        if (_children?.length) this.addBlocks(b.id, _children);
        return b as Block;
      }),
    );
  }

  static start(options: { authorize?: TokenCheck } = {}) {
    return new FakeNotion(new TokenAuthority("notion", "basic"), options.authorize).listen();
  }

  private error(status: number, code: string, message: string) {
    return { status, json: { object: "error", status, code, message } };
  }

  protected async handleApi(req: FakeRequest) {
    if (!(await this.authorized(req))) return this.error(401, "unauthorized", "API token is invalid.");
    if (req.headers["notion-version"] !== NOTION_VERSION)
      return this.error(400, "missing_version", "Notion-Version header failed validation");
    if (req.path === "/v1/users/me") return { json: NOTION_BOT };
    if (req.path === "/v1/search" && req.method === "POST") return this.search(req);
    const page = /^\/v1\/pages\/([0-9a-f-]{36})$/.exec(req.path);
    if (page) return this.page(page[1]!);
    const children = /^\/v1\/blocks\/([0-9a-f-]{36})\/children$/.exec(req.path);
    if (children) return this.blockChildren(req, children[1]!);
    return this.error(400, "invalid_request_url", "Invalid request URL.");
  }

  private pageObject(p: { id: string; title: string; edited: string }) {
    return {
      object: "page",
      id: p.id,
      created_time: "2026-01-01T00:00:00.000Z",
      last_edited_time: p.edited,
      parent: { type: "workspace", workspace: true },
      icon: p.title === "Project plan" ? { type: "emoji", emoji: "📋" } : null,
      archived: false,
      url: `https://www.notion.so/${p.title.replace(/\s/g, "-")}-${p.id.replace(/-/g, "")}`,
      properties: { title: { id: "title", type: "title", title: [text(p.title)] } },
    };
  }

  private search(req: FakeRequest) {
    const body = req.json<{
      query?: string;
      filter?: { property: string; value: string };
      page_size?: number;
      start_cursor?: string;
    }>();
    if (body.filter?.property !== "object" || body.filter.value !== "page")
      return this.error(400, "validation_error", "filter");
    const size = Math.min(body.page_size ?? 100, 100);
    const matching = this.pages.filter(
      (p) => !body.query || p.title.toLowerCase().includes(body.query.toLowerCase()),
    );
    const start = body.start_cursor ? matching.findIndex((p) => p.id === body.start_cursor) : 0;
    if (start < 0) return this.error(400, "validation_error", "start_cursor");
    const slice = matching.slice(start, start + size);
    const next = matching[start + size];
    return {
      json: {
        object: "list",
        results: slice.map((p) => this.pageObject(p)),
        next_cursor: next ? next.id : null,
        has_more: next !== undefined,
        type: "page_or_database",
        page_or_database: {},
      },
    };
  }

  private page(id: string) {
    const p = this.pages.find((x) => x.id === id);
    return p
      ? { json: this.pageObject(p) }
      : this.error(404, "object_not_found", `Could not find page with ID: ${id}.`);
  }

  private blockChildren(req: FakeRequest, id: string) {
    const all = this.children.get(id) ?? (this.pages.some((p) => p.id === id) ? [] : null);
    if (!all) return this.error(404, "object_not_found", `Could not find block with ID: ${id}.`);
    const size = Math.min(Number(req.query.get("page_size") ?? 100), 100);
    const cursor = req.query.get("start_cursor");
    const start = cursor ? all.findIndex((b) => b.id === cursor) : 0;
    const slice = all.slice(start, start + size);
    const next = all[start + size];
    return {
      json: {
        object: "list",
        results: slice,
        next_cursor: next ? next.id : null,
        has_more: next !== undefined,
        type: "block",
        block: {},
      },
    };
  }
}
