import {
  NOTES_MAX_BLOCKS as MAX_BLOCKS,
  NOTES_MAX_DEPTH as MAX_DEPTH,
  type NotesPageSummary,
} from "../../../contract/data.js";
import {
  NotionBlockChildren,
  NotionPage,
  type NotionPageBody,
  NotionSearch,
} from "../../upstream/sources/notion.js";
import { accountData, type ProviderServices } from "../client.js";
import type { AccountRow } from "../tokens.js";
import { blocksToMarkdown, type NotionBlock } from "./markdown.js";

const PAGE_SEARCH = accountData("notesSearch", "providerData");
const PAGES = accountData("notesPage", "notesPage");

/** A Notion id: 32 hex digits, with or without the UUID dashes. */
export const NOTION_ID =
  /^(?:[0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

export function normalizeId(id: string): string {
  const hex = id.replace(/-/g, "").toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function pageTitle(page: NotionPageBody): string {
  const prop = Object.values(page.properties ?? {}).find((p) => p.type === "title");
  const title = (prop?.title ?? []).map((t) => t.plain_text ?? "").join("");
  return title || "Untitled";
}

function toSummary(page: NotionPageBody): NotesPageSummary {
  return {
    id: page.id,
    title: pageTitle(page),
    url: page.url ?? null,
    icon: page.icon?.type === "emoji" ? (page.icon.emoji ?? null) : null,
    lastEditedAt: page.last_edited_time ? new Date(page.last_edited_time).toISOString() : null,
    parentId: page.parent?.page_id ?? page.parent?.database_id ?? null,
  };
}

/** Pages shared with the integration, most recently edited first, one Notion page at a time. */
export async function searchPages(
  services: ProviderServices,
  row: AccountRow,
  options: { query?: string; cursor?: string; pageSize: number },
) {
  const key = services.key(row, "search", options.query, options.cursor, options.pageSize);
  return services.cached(PAGE_SEARCH, key, async () => {
    const json: Record<string, unknown> = {
      filter: { property: "object", value: "page" },
      sort: { direction: "descending", timestamp: "last_edited_time" },
      page_size: options.pageSize,
    };
    if (options.query) json.query = options.query;
    if (options.cursor) json.start_cursor = options.cursor;
    const res = await services.call(row, { method: "POST", path: "/v1/search", what: "page search", json });
    const body = NotionSearch.read(res);
    return {
      pages: (body.results ?? []).map(toSummary),
      nextCursor: body.has_more ? (body.next_cursor ?? null) : null,
    };
  });
}

/** One page as Markdown; nested blocks are followed to MAX_DEPTH, at most MAX_BLOCKS in all. */
export async function pageMarkdown(services: ProviderServices, row: AccountRow, rawId: string) {
  const id = normalizeId(rawId);
  return services.cached(PAGES, services.key(row, "page", id), async () => {
    const page = NotionPage.read(await services.call(row, { path: `/v1/pages/${id}`, what: "page" }));
    const budget = { left: MAX_BLOCKS, truncated: false };
    const blocks = await children(services, row, id, 1, budget);
    return { ...toSummary(page), markdown: blocksToMarkdown(blocks), truncated: budget.truncated };
  });
}

async function children(
  services: ProviderServices,
  row: AccountRow,
  blockId: string,
  depth: number,
  budget: { left: number; truncated: boolean },
): Promise<NotionBlock[]> {
  const out: NotionBlock[] = [];
  let cursor: string | undefined;
  do {
    if (budget.left <= 0) {
      budget.truncated = true;
      break;
    }
    const query = new URLSearchParams({ page_size: String(Math.min(100, budget.left)) });
    if (cursor) query.set("start_cursor", cursor);
    const res = await services.call(row, { path: `/v1/blocks/${blockId}/children?${query}`, what: "page" });
    const body = NotionBlockChildren.read(res);
    const results = (body.results ?? []).slice(0, budget.left);
    budget.left -= results.length;
    out.push(...results);
    cursor = body.has_more && body.next_cursor ? body.next_cursor : undefined;
  } while (cursor);

  for (const block of out) {
    // Child pages are links of their own, not content of this one.
    if (!block.has_children || block.type === "child_page" || block.type === "child_database") continue;
    if (depth >= MAX_DEPTH || budget.left <= 0 || !NOTION_ID.test(block.id)) {
      budget.truncated = true;
      continue;
    }
    block.children = await children(services, row, normalizeId(block.id), depth + 1, budget);
  }
  return out;
}
