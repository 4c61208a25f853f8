import type { KanbanConfig } from "../contract";

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
