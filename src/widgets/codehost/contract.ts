import type { Static } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { defineWidgetType } from "../../contract/widget-kit/define.js";
import { Matching, OneOf } from "../../contract/widget-kit/fields.js";

export const MAX_REPOS = 10;
/** GitHub's owner/name rules, as the server checks them. */
export const REPO_PATTERN_SOURCE = "^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$";

export const CodehostConfig = Type.Object({
  tab: OneOf(["issues", "pulls"], { default: "issues" }),
  /** owner/name; empty means every repository. */
  repos: Type.Array(Matching(REPO_PATTERN_SOURCE, { clean: (s) => s.trim() }), {
    maxItems: MAX_REPOS,
    uniqueItems: true,
    default: [],
  }),
});
export type CodehostConfig = Static<typeof CodehostConfig>;

export const codehostWidget = defineWidgetType({
  type: "Codehost",
  config: CodehostConfig,
  data: { kind: "account", provider: "codehost" },
});
