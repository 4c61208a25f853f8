import type { MailLabel, MailMessage, MailSummary } from "../../../contract/data.js";
import { badRequest } from "../../http/errors.js";
import {
  GmailLabels,
  GmailMessage,
  type GmailMessageBody,
  GmailMessageList,
  type GmailPartBody,
} from "../../upstream/sources/google.js";
import { accountData, type ProviderServices } from "../client.js";
import type { AccountRow } from "../tokens.js";

/** Gmail REST v1 (https://developers.google.com/gmail/api/reference/rest). */
const GMAIL = "/gmail/v1/users/me";
/** Messages fetched in parallel when listing, as the original app did. */
const CONCURRENCY = 8;

const MAIL_LISTS = accountData("mailLists", "providerData");
const MAIL_MESSAGE = accountData("mailMessage", "mailMessage");

export interface MailAddress {
  name: string;
  email: string;
}

export async function listLabels(services: ProviderServices, row: AccountRow): Promise<MailLabel[]> {
  return services.cached(MAIL_LISTS, services.key(row, "labels"), async () => {
    const body = GmailLabels.read(await services.call(row, { path: `${GMAIL}/labels`, what: "label list" }));
    return (body.labels ?? []).map((l) => ({
      id: l.id,
      name: l.name,
      type: l.type === "system" ? ("system" as const) : ("user" as const),
    }));
  });
}

/** Gmail search terms for system labels; user labels are searched by name. */
const SYSTEM_TERMS: Record<string, string> = {
  INBOX: "in:inbox",
  SENT: "in:sent",
  DRAFT: "in:drafts",
  SPAM: "in:spam",
  TRASH: "in:trash",
  CHAT: "in:chats",
  UNREAD: "is:unread",
  STARRED: "is:starred",
  IMPORTANT: "is:important",
};

/**
 * messages.list ANDs `labelIds`, but a widget showing several labels wants their union, so more
 * than one label becomes a search of the form `{in:inbox label:work}` (braces mean OR).
 */
async function labelFilter(services: ProviderServices, row: AccountRow, labels: string[]) {
  if (labels.length === 1) return new URLSearchParams({ labelIds: labels[0]! });
  const known = new Map((await listLabels(services, row)).map((l) => [l.id, l]));
  const terms = labels.map((id) => {
    const label = known.get(id);
    if (!label)
      throw badRequest(`Unknown label ${id}`, [{ path: "/labels", message: `unknown label ${id}` }]);
    if (SYSTEM_TERMS[id]) return SYSTEM_TERMS[id];
    if (id.startsWith("CATEGORY_")) return `category:${id.slice(9).toLowerCase()}`;
    return `label:${label.name
      .toLowerCase()
      .replace(/[\s/]+/g, "-")
      .replace(/["{}()]/g, "")}`;
  });
  return new URLSearchParams({ q: `{${terms.join(" ")}}` });
}

export async function listMessages(
  services: ProviderServices,
  row: AccountRow,
  options: { labels: string[]; pageSize: number; pageToken?: string },
) {
  const key = services.key(row, "mail", options.labels.join(","), options.pageSize, options.pageToken);
  return services.cached(MAIL_LISTS, key, async () => {
    const query = await labelFilter(services, row, options.labels);
    query.set("maxResults", String(options.pageSize));
    if (options.pageToken) query.set("pageToken", options.pageToken);
    const page = GmailMessageList.read(
      await services.call(row, { path: `${GMAIL}/messages?${query}`, what: "message list" }),
    );
    const ids = (page.messages ?? []).map((m) => m.id).filter((id) => MESSAGE_ID.test(id));
    const messages = await mapLimit(ids, CONCURRENCY, async (id) => {
      const meta = new URLSearchParams({ format: "metadata" });
      for (const h of ["From", "Subject", "Date"]) meta.append("metadataHeaders", h);
      const res = await services.call(row, { path: `${GMAIL}/messages/${id}?${meta}`, what: "message" });
      // A message deleted between the list and the fetch is skipped, not an error.
      if (res.status === 404) return null;
      return toSummary(GmailMessage.read(res));
    });
    return {
      messages: messages.filter((m): m is MailSummary => m !== null),
      nextPageToken: page.nextPageToken ?? null,
      resultSizeEstimate: page.resultSizeEstimate ?? 0,
    };
  });
}

export const MESSAGE_ID = /^[A-Za-z0-9_-]{1,128}$/;

export async function getMessage(
  services: ProviderServices,
  row: AccountRow,
  id: string,
): Promise<MailMessage> {
  return services.cached(MAIL_MESSAGE, services.key(row, "message", id), async () => {
    const res = await services.call(row, {
      path: `${GMAIL}/messages/${encodeURIComponent(id)}?format=full`,
      what: "message",
    });
    const message = GmailMessage.read(res);
    const html = findBody(message.payload, "text/html");
    const text = html === null ? findBody(message.payload, "text/plain") : null;
    // sanitize-html and its CSS parser load with the first message opened, not with every start.
    const { sanitizeEmailHtml, textToHtml } = await import("./sanitize.js");
    return {
      ...toSummary(message),
      to: header(message.payload, "To"),
      html: sanitizeEmailHtml(html ?? textToHtml(text ?? message.snippet ?? "")),
      webUrl: `https://mail.google.com/mail/u/0/#all/${encodeURIComponent(message.id)}`,
    };
  });
}

function toSummary(m: GmailMessageBody): MailSummary {
  const labels = m.labelIds ?? [];
  const at = Number(m.internalDate);
  return {
    id: m.id,
    threadId: m.threadId ?? m.id,
    from: parseAddress(header(m.payload, "From")),
    subject: header(m.payload, "Subject"),
    snippet: decodeEntities(m.snippet ?? ""),
    date: new Date(
      Number.isFinite(at) && at > 0 ? at : Date.parse(header(m.payload, "Date")) || 0,
    ).toISOString(),
    unread: labels.includes("UNREAD"),
    labels,
  };
}

function header(part: GmailPartBody | undefined, name: string): string {
  const lower = name.toLowerCase();
  return part?.headers?.find((h) => h.name.toLowerCase() === lower)?.value ?? "";
}

/** `"Ada Lovelace" <ada@example.com>` → name and address; a bare address has an empty name. */
export function parseAddress(value: string): MailAddress {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(value);
  if (match) return { name: match[1]!.trim(), email: match[2]!.trim() };
  return { name: "", email: value.trim() };
}

/** The first body of the given type, depth first, as Gmail nests multipart/alternative. */
function findBody(part: GmailPartBody | undefined, mimeType: string, depth = 0): string | null {
  if (!part || depth > 10) return null;
  if (part.mimeType === mimeType && part.body?.data) {
    return Buffer.from(part.body.data, "base64url").toString("utf8");
  }
  for (const child of part.parts ?? []) {
    const found = findBody(child, mimeType, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Gmail snippets arrive HTML-escaped; widgets show them as text. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, entity: string) => {
    if (entity[0] === "#") {
      const code =
        entity[1] === "x" || entity[1] === "X"
          ? Number.parseInt(entity.slice(2), 16)
          : Number(entity.slice(1));
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : all;
    }
    return ENTITIES[entity.toLowerCase()] ?? all;
  });
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  });
  await Promise.all(workers);
  return out;
}
