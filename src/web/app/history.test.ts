import { describe, expect, it } from "vitest";
import type { Widget } from "../../contract/resources";
import {
  afterRestore,
  type Change,
  describeChange,
  HISTORY_LIMIT,
  pushChange,
  renameInHistory,
} from "./history";

const g = (x: number) => ({ x, y: 0, w: 5, h: 10 });

describe("undo history", () => {
  it("keeps at most the last HISTORY_LIMIT changes", () => {
    let history: Change[] = [];
    for (let i = 0; i < HISTORY_LIMIT + 5; i++)
      history = pushChange(history, { kind: "add", id: String(i), name: "Clock" });
    expect(history).toHaveLength(HISTORY_LIMIT);
    expect(history[0]).toMatchObject({ id: "5" });
  });

  it("follows a widget that came back under a new id", () => {
    const history: Change[] = [
      {
        kind: "layout",
        changes: [
          { id: "old", breakpoint: "xl", before: g(0), after: g(2) },
          { id: "other", breakpoint: "xl", before: g(0), after: g(1) },
        ],
      },
      { kind: "remove", widget: { id: "old" } as Widget, name: "Clock" },
    ];
    const renamed = renameInHistory(history, "old", "new");
    expect(renamed[0]).toMatchObject({ changes: [{ id: "new" }, { id: "other" }] });
    expect(renamed[1]).toMatchObject({ widget: { id: "new" } });
  });

  it("starts again from a restore, which replaced every widget, and says what Undo takes back", () => {
    const restored = afterRestore("v1");
    expect(restored).toEqual([{ kind: "restore", undoTo: "v1" }]);
    expect(describeChange(restored[0]!)).toBe("restoring a version");
    // The first version has nothing before it to go back to.
    expect(afterRestore(undefined)).toEqual([]);
    // A later removal's undo leaves the restore as it is.
    expect(renameInHistory(restored, "old", "new")[0]).toBe(restored[0]);
  });
});
