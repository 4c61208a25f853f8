import type { KanbanConfig } from "./contract.js";

/** A small board for tests: two columns, four cards, colours in both spellings. */
export const testBoard = (): KanbanConfig => ({
  columns: [
    {
      id: "a",
      title: "A",
      color: "#111111",
      cards: [
        { id: "1", title: "one" },
        { id: "2", title: "two" },
        { id: "3", title: "three" },
      ],
    },
    { id: "b", title: "B", color: "#222", cards: [{ id: "4", title: "four" }] },
  ],
});
