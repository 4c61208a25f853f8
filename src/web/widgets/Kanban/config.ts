import { asId, asString, HEX_COLOR, isRecord, uniqueIds } from "../../lib/parse";

export interface KanbanCard {
  id: string;
  title: string;
}
export interface KanbanColumn {
  id: string;
  title: string;
  color: string;
  cards: KanbanCard[];
}
export interface KanbanConfig {
  columns: KanbanColumn[];
}

export const PALETTE = [
  "#64748b",
  "#3b82f6",
  "#f59e0b",
  "#10b981",
  "#ef4444",
  "#8b5cf6",
  "#ec4899",
  "#14b8a6",
];

export const defaultKanbanConfig = (): KanbanConfig => ({
  columns: [
    { id: "column-todo", title: "To do", color: "#64748b", cards: [] },
    { id: "column-doing", title: "Doing", color: "#3b82f6", cards: [] },
    { id: "column-done", title: "Done", color: "#10b981", cards: [] },
  ],
});

export function parseKanbanConfig(raw: unknown): KanbanConfig {
  if (!isRecord(raw) || !Array.isArray(raw.columns)) return defaultKanbanConfig();
  const columns: KanbanColumn[] = [];
  raw.columns.forEach((entry, index) => {
    if (!isRecord(entry)) return;
    const cards: KanbanCard[] = [];
    if (Array.isArray(entry.cards)) {
      entry.cards.forEach((card, cardIndex) => {
        if (!isRecord(card) || typeof card.title !== "string") return;
        cards.push({ id: asId(card.id, `card-${index}`, cardIndex), title: card.title.slice(0, 500) });
      });
    }
    columns.push({
      id: asId(entry.id, "column", index),
      title: asString(entry.title, "", 100).trim() || "Untitled",
      color:
        typeof entry.color === "string" && HEX_COLOR.test(entry.color)
          ? entry.color
          : PALETTE[index % PALETTE.length]!,
      cards,
    });
  });
  // Card ids must be unique across the whole board, since cards move between columns.
  const seen = new Set<string>();
  const fixed = columns.map((column) => ({
    ...column,
    cards: column.cards.map((card, i) => {
      let id = card.id;
      while (seen.has(id)) id = `${card.id}-${column.id}-${i}`;
      seen.add(id);
      return id === card.id ? card : { ...card, id };
    }),
  }));
  return { columns: uniqueIds(fixed) };
}

export function findCard(config: KanbanConfig, cardId: string): { column: number; index: number } | null {
  for (let c = 0; c < config.columns.length; c++) {
    const index = config.columns[c]!.cards.findIndex((card) => card.id === cardId);
    if (index >= 0) return { column: c, index };
  }
  return null;
}

/**
 * Moves a card to `toIndex` in a column. The index counts cards as they are before the move, so
 * "drop before card N" means toIndex N even when the card comes from above N in the same column.
 */
export function moveCard(
  config: KanbanConfig,
  cardId: string,
  toColumnId: string,
  toIndex: number,
): KanbanConfig {
  const from = findCard(config, cardId);
  const target = config.columns.findIndex((c) => c.id === toColumnId);
  if (!from || target < 0) return config;
  const card = config.columns[from.column]!.cards[from.index]!;
  let index = toIndex;
  if (from.column === target && from.index < toIndex) index -= 1;
  if (from.column === target && from.index === index) return config;
  const columns = config.columns.map((column) => ({ ...column, cards: [...column.cards] }));
  columns[from.column]!.cards.splice(from.index, 1);
  const cards = columns[target]!.cards;
  cards.splice(Math.max(0, Math.min(index, cards.length)), 0, card);
  return { columns };
}
