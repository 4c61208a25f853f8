import { afterEach, describe, expect, it } from "vitest";
import { switchLanguage } from "../../../web/i18n/i18n";
import { type KanbanConfig, kanbanWidget } from "../contract";
import { testBoard as board } from "../fixture";
import { localizedDefaults, moveCard } from "./logic";

describe("moving cards", () => {
  const titles = (c: KanbanConfig) => c.columns.map((col) => col.cards.map((card) => card.id).join(""));

  it("reorders within a column (drop before a card below and above)", () => {
    expect(titles(moveCard(board(), "1", "a", 3))).toEqual(["231", "4"]);
    expect(titles(moveCard(board(), "1", "a", 2))).toEqual(["213", "4"]);
    expect(titles(moveCard(board(), "3", "a", 0))).toEqual(["312", "4"]);
    expect(moveCard(board(), "2", "a", 1)).toEqual(board());
  });

  it("moves across columns at the given position", () => {
    expect(titles(moveCard(board(), "2", "b", 0))).toEqual(["13", "24"]);
    expect(titles(moveCard(board(), "2", "b", 1))).toEqual(["13", "42"]);
    expect(titles(moveCard(board(), "4", "a", 99))).toEqual(["1234", ""]);
  });

  it("ignores unknown cards and columns", () => {
    expect(moveCard(board(), "nope", "a", 0)).toEqual(board());
    expect(moveCard(board(), "1", "nope", 0)).toEqual(board());
  });
});

describe("a new board's columns", () => {
  afterEach(() => switchLanguage("en"));

  it("are named in the language of the person adding it, otherwise as the contract's", async () => {
    expect(localizedDefaults()).toEqual(kanbanWidget.defaults());
    await switchLanguage("de");
    const german = localizedDefaults();
    expect(german.columns.map((c) => c.title)).toEqual(["Zu erledigen", "In Arbeit", "Erledigt"]);
    // Only the words change: ids and colours stay the contract's.
    expect(german.columns.map((c) => [c.id, c.color])).toEqual(
      kanbanWidget.defaults().columns.map((c) => [c.id, c.color]),
    );
  });
});
