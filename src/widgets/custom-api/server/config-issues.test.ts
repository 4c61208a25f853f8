import { describe, expect, it } from "vitest";
import { customApiConfigIssues } from "./config-issues.js";

describe("Custom API config checks", () => {
  it("accepts good queries, and configs without any", () => {
    expect(customApiConfigIssues({})).toEqual([]);
    expect(customApiConfigIssues(null)).toEqual([]);
    expect(
      customApiConfigIssues({
        refreshSeconds: 10,
        fields: [{ query: 'a."foo-bar"[0].name' }, { query: "length(items[?state == 'up'])" }],
        list: { query: "items[*]", columns: [{ query: "to_number(size) / `1024`" }] },
      }),
    ).toEqual([]);
  });

  it("names each bad query by its JSON pointer", () => {
    const issues = customApiConfigIssues({
      fields: [{ query: "ok" }, { query: "a.[" }, { query: "" }, { query: 5 }, { query: "nope(a)" }],
      list: { query: "items[?", columns: [{ query: "name" }, { query: "`{bad`" }] },
    });
    expect(issues.map((i) => i.path)).toEqual([
      "/fields/1/query",
      "/fields/2/query",
      "/fields/3/query",
      "/fields/4/query",
      "/list/query",
      "/list/columns/1/query",
    ]);
    expect(issues[0]!.message).toMatch(/is not a JMESPath expression/);
    expect(issues[1]!.message).toBe("must not be empty");
    expect(issues[3]!.message).toBe("calls an unknown function: nope()");
  });

  it("refuses an over-long query and a refresh below ten seconds", () => {
    const issues = customApiConfigIssues({ refreshSeconds: 5, fields: [{ query: "a".repeat(1001) }] });
    expect(issues).toEqual([
      { path: "/fields/0/query", message: "must be at most 1000 characters" },
      { path: "/refreshSeconds", message: "must be a whole number of seconds from 10 to 86400" },
    ]);
  });
});
