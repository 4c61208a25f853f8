import type { WorkItem } from "../../../contract/data.js";
import { GithubIssueSearch, type GithubSearchItem } from "../../upstream/sources/github.js";
import { accountData, type ProviderServices } from "../client.js";
import type { AccountRow } from "../tokens.js";

const WORK_ITEMS = accountData("workItems", "providerData");

/** owner/name as GitHub allows them. */
export const REPO = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/;

/**
 * Open issues or pull requests assigned to or authored by the user, across every repository
 * they can see, in ONE search request (the original app listed every repository and fetched
 * issues per repository). `@me` is the token's user, so no login lookup is needed.
 */
export async function searchWorkItems(
  services: ProviderServices,
  row: AccountRow,
  options: { type: "issue" | "pr"; repos?: string[]; page: number; perPage: number },
) {
  const terms = ["is:open", `is:${options.type}`, "archived:false", "(assignee:@me OR author:@me)"];
  if (options.repos?.length) terms.push(`(${options.repos.map((r) => `repo:${r}`).join(" OR ")})`);
  const query = new URLSearchParams({
    q: terms.join(" "),
    // Boolean OR and parentheses need GitHub's advanced issue search.
    advanced_search: "true",
    sort: "updated",
    order: "desc",
    per_page: String(options.perPage),
    page: String(options.page),
  });
  const key = services.key(row, "search", query.toString());
  return services.cached(WORK_ITEMS, key, async () => {
    const res = await services.call(row, { path: `/search/issues?${query}`, what: "issue search" });
    const body = GithubIssueSearch.read(res);
    const total = body.total_count ?? 0;
    return {
      totalCount: total,
      incompleteResults: body.incomplete_results === true,
      page: options.page,
      perPage: options.perPage,
      // GitHub search serves at most the first 1000 results.
      hasMore: options.page * options.perPage < Math.min(total, 1000),
      items: (body.items ?? []).map(toWorkItem),
    };
  });
}

function toWorkItem(item: GithubSearchItem): WorkItem {
  return {
    id: item.id,
    number: item.number,
    title: item.title,
    repository: (item.repository_url ?? "").split("/repos/")[1] ?? "",
    url: item.html_url,
    state: item.state,
    draft: item.draft === true,
    isPullRequest: item.pull_request !== undefined && item.pull_request !== null,
    author: item.user?.login ?? null,
    labels: (item.labels ?? []).map((l) =>
      typeof l === "string" ? { name: l, color: null } : { name: l.name ?? "", color: l.color ?? null },
    ),
    comments: item.comments ?? 0,
    createdAt: new Date(item.created_at).toISOString(),
    updatedAt: new Date(item.updated_at).toISOString(),
  };
}
