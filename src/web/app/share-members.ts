import type { Directory, Member, MemberInput, MemberRole, MemberType } from "../../contract/sharing";
import { t } from "../i18n/i18n";
import { ApiError } from "../lib/api";

/**
 * The share dialog's list while it is being changed: the stored members, plus people and groups
 * picked from the directory or named by email, each with a role. Saved as a whole
 * (`PUT /api/dashboards/members`), in this order, so the server's `/members/<i>` paths name rows.
 */
export interface DraftMember {
  /** Stable across edits: "user:<id>", "email:<address>", "group:<id>", "everyone". */
  key: string;
  type: MemberType;
  /** The user's or group's id; null for everyone and for someone named by email. */
  id: string | null;
  /** Someone not in the directory (open sign-up), named by their address. */
  email?: string;
  /** The name to show; the address for someone named by email. */
  name: string;
  role: MemberRole;
}

/** One person, group, or everyone, as the picker offers them. */
export interface Candidate {
  type: MemberType;
  id: string | null;
  name: string;
}

export const keyOf = (who: { type: MemberType; id: string | null; email?: string }): string =>
  who.type === "everyone"
    ? "everyone"
    : who.email
      ? `email:${who.email.toLowerCase()}`
      : `${who.type}:${who.id}`;

export function draftOf(members: readonly Member[]): DraftMember[] {
  return members.map((m) => ({ key: keyOf(m), type: m.type, id: m.id, name: m.name, role: m.role }));
}

/** The body entry of one row. */
export function inputOf(member: DraftMember): MemberInput {
  const { role } = member;
  if (member.type === "everyone") return { type: "everyone", role };
  if (member.type === "group") return { type: "group", id: member.id ?? "", role };
  return member.email
    ? { type: "user", email: member.email, role }
    : { type: "user", id: member.id ?? "", role };
}

/** Whether the list differs from what is stored (who, and as what). */
export function changed(draft: readonly DraftMember[], stored: readonly Member[]): boolean {
  if (draft.length !== stored.length) return true;
  const roles = new Map(stored.map((m) => [keyOf(m), m.role]));
  return draft.some((m) => roles.get(m.key) !== m.role);
}

/** Adds someone (as `role`) unless they are on the list already. */
export function addMember(
  draft: readonly DraftMember[],
  who: Candidate & { email?: string },
  role: MemberRole = "viewer",
): DraftMember[] {
  const key = keyOf(who);
  if (draft.some((m) => m.key === key)) return [...draft];
  return [...draft, { key, type: who.type, id: who.id, email: who.email, name: who.name, role }];
}

export const setRole = (draft: readonly DraftMember[], key: string, role: MemberRole): DraftMember[] =>
  draft.map((m) => (m.key === key ? { ...m, role } : m));

export const removeMember = (draft: readonly DraftMember[], key: string): DraftMember[] =>
  draft.filter((m) => m.key !== key);

const fold = (text: string) => text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();

/**
 * Whom the picker offers for a search: everyone (named `everyoneName`), then groups, then people,
 * whose name contains what was typed; never someone on the list already, nor the dashboard's owner.
 */
export function candidates(
  directory: Directory | undefined,
  draft: readonly DraftMember[],
  search: string,
  options: { ownerId: string; everyoneName: string; limit?: number },
): { shown: Candidate[]; more: number } {
  const listed = new Set(draft.map((m) => m.key));
  const wanted = fold(search.trim());
  const all: Candidate[] = [
    { type: "everyone", id: null, name: options.everyoneName },
    ...(directory?.groups ?? []).map((g) => ({ type: "group" as const, id: g.id, name: g.name })),
    ...(directory?.users ?? [])
      .filter((u) => u.id !== options.ownerId)
      .map((u) => ({ type: "user" as const, id: u.id, name: u.name })),
  ];
  const matching = all.filter((c) => !listed.has(keyOf(c)) && (!wanted || fold(c.name).includes(wanted)));
  const limit = options.limit ?? 8;
  return { shown: matching.slice(0, limit), more: Math.max(0, matching.length - limit) };
}

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A server message about one member, in the reader's language when it is one we know. */
function memberProblem(message: string, member: DraftMember | undefined): string {
  if (/^no (user|group) /.test(message))
    return member?.email
      ? t("share.errors.noAccount")
      : member?.type === "group"
        ? t("share.errors.groupGone")
        : t("share.errors.userGone");
  if (message.startsWith("is the dashboard's owner")) return t("share.errors.owner");
  if (message === "is named twice") return t("share.errors.twice");
  return message;
}

/** The refused save's messages by row key (from the `/members/<i>` paths); rows the server named only. */
export function memberErrors(error: unknown, sent: readonly DraftMember[]): Map<string, string> {
  const out = new Map<string, string>();
  if (!(error instanceof ApiError)) return out;
  for (const problem of error.problem?.errors ?? []) {
    const index = /^\/members\/(\d+)/.exec(problem.path)?.[1];
    const member = index === undefined ? undefined : sent[Number(index)];
    if (member && !out.has(member.key)) out.set(member.key, memberProblem(problem.message, member));
  }
  return out;
}
