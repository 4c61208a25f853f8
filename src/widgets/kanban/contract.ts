import type { Static } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { defineWidgetType } from "../../contract/widget-kit/define.js";
import { Id, ItemList, Text } from "../../contract/widget-kit/fields.js";
import { type RepairKeywords, uniqueIds } from "../../contract/widget-kit/parse.js";

export const KANBAN_PALETTE = [
  "#64748b",
  "#3b82f6",
  "#f59e0b",
  "#10b981",
  "#ef4444",
  "#8b5cf6",
  "#ec4899",
  "#14b8a6",
];

const paletteAt: RepairKeywords = {
  defaultAt: ([column = 0]) => KANBAN_PALETTE[column % KANBAN_PALETTE.length],
};

const Card = Type.Object({
  id: Id("card"),
  title: Text({ maxLength: 500 }),
});

const Column = Type.Object({
  id: Id("column"),
  title: Text({ maxLength: 100, minLength: 1, trim: true, default: "Untitled" }),
  color: Type.String({ pattern: "^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$", ...paletteAt }),
  cards: Type.Array(Card, { default: [] }),
});

export const KanbanConfig = Type.Object({
  columns: ItemList(Column, {
    default: [
      { id: "column-todo", title: "To do", color: "#64748b", cards: [] },
      { id: "column-doing", title: "Doing", color: "#3b82f6", cards: [] },
      { id: "column-done", title: "Done", color: "#10b981", cards: [] },
    ],
  }),
});
export type KanbanConfig = Static<typeof KanbanConfig>;
export type KanbanColumn = KanbanConfig["columns"][number];
export type KanbanCard = KanbanColumn["cards"][number];

export const kanbanWidget = defineWidgetType({
  type: "Kanban",
  config: KanbanConfig,
  data: { kind: "config" },
  // Card ids must be unique across the whole board, since cards move between columns.
  refine: (config) => {
    const seen = new Set<string>();
    return { columns: config.columns.map((column) => ({ ...column, cards: uniqueIds(column.cards, seen) })) };
  },
});
