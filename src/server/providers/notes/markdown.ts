import type { RichText } from "../../upstream/sources/notion.js";

/**
 * Notion blocks to Markdown (https://developers.notion.com/reference/block). Covers what notes
 * widgets show: headings, lists, to-dos, quotes, callouts, code, links, dividers, images,
 * tables; other block types are left out.
 */

export interface NotionBlock {
  id: string;
  type: string;
  has_children?: boolean;
  /** Children fetched by the caller (bounded depth). */
  children?: NotionBlock[];
  [key: string]: unknown;
}

const SAFE_LINK = /^(https?:|mailto:)/i;

const escapeMd = (text: string) => text.replace(/([\\`*_[\]<>])/g, "\\$1");

export function richText(items: RichText[] | undefined): string {
  return (items ?? [])
    .map((item) => {
      const raw = item.plain_text ?? "";
      if (!raw) return "";
      const a = item.annotations ?? {};
      let text = a.code ? `\`${raw.replace(/`/g, "'")}\`` : escapeMd(raw);
      // Emphasis markers must hug the text, so surrounding spaces move outside them.
      const [, lead = "", core = "", trail = ""] = /^(\s*)([\s\S]*?)(\s*)$/.exec(text) ?? [];
      text = core;
      if (text && a.bold) text = `**${text}**`;
      if (text && a.italic) text = `*${text}*`;
      if (text && a.strikethrough) text = `~~${text}~~`;
      if (text && item.href && SAFE_LINK.test(item.href))
        text = `[${text}](<${item.href.replace(/>/g, "%3E")}>)`;
      return lead + text + trail;
    })
    .join("");
}

function content(block: NotionBlock): Record<string, unknown> {
  const value = block[block.type];
  return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
}

const rich = (block: NotionBlock) => richText(content(block).rich_text as RichText[] | undefined);

function fileUrl(value: Record<string, unknown>): string | null {
  const url =
    (value.external as { url?: string } | undefined)?.url ??
    (value.file as { url?: string } | undefined)?.url;
  return typeof url === "string" && /^https:/i.test(url) ? url : null;
}

/** Prefixes every line; blank lines get `blank`, so a quote stays one quote across paragraphs. */
const indent = (text: string, by: string, blank = "") =>
  text
    .split("\n")
    .map((line) => (line ? by + line : blank))
    .join("\n");

/** Renders blocks (with any fetched children) as Markdown. */
export function blocksToMarkdown(blocks: NotionBlock[]): string {
  const out: string[] = [];
  let number = 0;
  for (const block of blocks) {
    number = block.type === "numbered_list_item" ? number + 1 : 0;
    const rendered = renderBlock(block, number);
    if (rendered !== null) out.push(rendered);
  }
  // List items stay together; everything else is its own paragraph.
  return out
    .reduce((acc, part, i) => {
      const isItem = /^(- |\d+\. )/.test(part);
      const prevItem = i > 0 && /^(- |\d+\. )/.test(out[i - 1]!);
      return acc + (i === 0 ? "" : isItem && prevItem ? "\n" : "\n\n") + part;
    }, "")
    .trim();
}

function renderBlock(block: NotionBlock, number: number): string | null {
  const value = content(block);
  const children = block.children?.length ? blocksToMarkdown(block.children) : "";
  const nested = children ? `\n${indent(children, "   ")}` : "";
  switch (block.type) {
    case "paragraph":
      return rich(block) + (children ? `\n\n${children}` : "");
    case "heading_1":
      return `# ${rich(block)}`;
    case "heading_2":
      return `## ${rich(block)}`;
    case "heading_3":
      return `### ${rich(block)}`;
    case "bulleted_list_item":
    case "toggle":
      return `- ${rich(block)}${nested}`;
    case "numbered_list_item":
      return `${number}. ${rich(block)}${nested}`;
    case "to_do":
      return `- [${value.checked === true ? "x" : " "}] ${rich(block)}${nested}`;
    case "quote":
      return indent(rich(block) + (children ? `\n\n${children}` : ""), "> ", ">");
    case "callout": {
      const icon = (value.icon as { emoji?: string } | undefined)?.emoji;
      return indent((icon ? `${icon} ` : "") + rich(block) + (children ? `\n\n${children}` : ""), "> ", ">");
    }
    case "code": {
      const raw = typeof value.language === "string" && value.language !== "plain text" ? value.language : "";
      const language = raw.replace(/[^\w+#-]/g, "");
      const code = ((value.rich_text as RichText[] | undefined) ?? [])
        .map((t) => t.plain_text ?? "")
        .join("");
      const fence = code.includes("```") ? "~~~~" : "```";
      return `${fence}${language}\n${code}\n${fence}`;
    }
    case "divider":
      return "---";
    case "equation":
      return typeof value.expression === "string" ? `$$\n${value.expression}\n$$` : null;
    case "child_page":
      return `[${escapeMd(String(value.title ?? "Untitled"))}](<https://www.notion.so/${block.id.replace(/-/g, "")}>)`;
    case "image": {
      const url = fileUrl(value);
      return url ? `![${richText(value.caption as RichText[] | undefined)}](<${url}>)` : null;
    }
    case "bookmark":
    case "link_preview":
    case "embed": {
      const url = typeof value.url === "string" && SAFE_LINK.test(value.url) ? value.url : null;
      return url ? `[${escapeMd(url)}](<${url}>)` : null;
    }
    case "table":
      return renderTable(block);
    default:
      return children || null;
  }
}

function renderTable(block: NotionBlock): string | null {
  const rows = (block.children ?? [])
    .filter((r) => r.type === "table_row")
    .map((r) =>
      ((content(r).cells as RichText[][] | undefined) ?? []).map((cell) =>
        richText(cell).replace(/\|/g, "\\|"),
      ),
    );
  if (rows.length === 0) return null;
  const width = Math.max(...rows.map((r) => r.length));
  const line = (cells: string[]) =>
    `| ${Array.from({ length: width }, (_, i) => cells[i] ?? "").join(" | ")} |`;
  return [line(rows[0]!), line(Array(width).fill("---")), ...rows.slice(1).map(line)].join("\n");
}
