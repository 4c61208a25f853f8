import { search } from "@jmespath-community/jmespath";
import { describe, expect, it } from "vitest";
import { columnCandidates, labelFor, pathOf } from "./paths";

describe("paths from the preview tree", () => {
  it("writes JMESPath that finds the clicked value again", () => {
    const json = { data: { items: [{ name: "a", "foo-bar": { "/": 7 }, let: 1 }] }, "2fa": true };
    const cases: [Parameters<typeof pathOf>[0], unknown][] = [
      [["data", "items", 0, "name"], "a"],
      [["data", "items", 0, "foo-bar", "/"], 7],
      [["data", "items", 0, "let"], 1],
      [["2fa"], true],
      [[], json],
    ];
    for (const [segments, value] of cases) expect(search(json, pathOf(segments))).toEqual(value);
    expect(pathOf(["data", "items", 0, "name"])).toBe("data.items[0].name");
    expect(pathOf(["foo-bar"])).toBe('"foo-bar"');
    expect(pathOf([0, "id"])).toBe("[0].id");
  });

  it("names a field after its key", () => {
    expect(labelFor(["memory", "used_bytes"])).toBe("Used bytes");
    expect(labelFor(["cpuTotal"])).toBe("Cpu total");
    expect(labelFor(["items", 0])).toBe("Items");
  });

  it("offers an array's item keys as columns, one level deep", () => {
    expect(columnCandidates([{ name: "a", state: { status: "up", list: [] }, tags: ["x"], n: 1 }])).toEqual([
      ["name"],
      ["state", "status"],
      ["n"],
    ]);
    expect(columnCandidates([1, 2])).toEqual([[]]);
    expect(columnCandidates([])).toEqual([]);
  });
});
