import { t } from "../../../web/i18n/i18n";
import type { PatchOperation } from "../../../web/widget-kit/types";
import { type KanbanCard, type KanbanColumn, type KanbanConfig, kanbanWidget } from "../contract";

/**
 * A new board's columns, titled in the language of the person adding it. The contract's defaults
 * stay English: they are what the API fills in for a client that sends no config.
 */
export function localizedDefaults(): KanbanConfig {
  const titles: Record<string, string> = {
    "column-todo": t("widgets.kanban.defaultColumns.todo"),
    "column-doing": t("widgets.kanban.defaultColumns.doing"),
    "column-done": t("widgets.kanban.defaultColumns.done"),
  };
  const defaults = kanbanWidget.defaults();
  return {
    ...defaults,
    columns: defaults.columns.map((column) => ({ ...column, title: titles[column.id] ?? column.title })),
  };
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

/*
 * The board's changes as JSON Patch operations on the config (widget-kit `patch`), so two people
 * moving or adding different cards at once both land. Each names its column or card by index
 * after a `test` of its id there: if the board moved under it, the server refuses (409) and the
 * change is said again on the board as it is then. Something no longer there is nothing to do.
 */

const columnAt = (config: KanbanConfig, columnId: string) => {
  const index = config.columns.findIndex((c) => c.id === columnId);
  return index < 0
    ? null
    : {
        path: `/columns/${index}`,
        guard: { op: "test", path: `/columns/${index}/id`, value: columnId } satisfies PatchOperation,
      };
};

const cardAt = (config: KanbanConfig, cardId: string) => {
  const at = findCard(config, cardId);
  if (!at) return null;
  const path = `/columns/${at.column}/cards/${at.index}`;
  return { ...at, path, guard: { op: "test", path: `${path}/id`, value: cardId } satisfies PatchOperation };
};

export const addColumnOps = (column: KanbanColumn): PatchOperation[] => [
  { op: "add", path: "/columns/-", value: column },
];

export function setColumnOps(
  config: KanbanConfig,
  columnId: string,
  change: Partial<Pick<KanbanColumn, "title" | "color">>,
): PatchOperation[] {
  const at = columnAt(config, columnId);
  if (!at) return [];
  const fields = Object.entries(change).filter(([, value]) => value !== undefined);
  return [
    at.guard,
    ...fields.map(([key, value]) => ({ op: "replace" as const, path: `${at.path}/${key}`, value })),
  ];
}

export function removeColumnOps(config: KanbanConfig, columnId: string): PatchOperation[] {
  const at = columnAt(config, columnId);
  return at ? [at.guard, { op: "remove", path: at.path }] : [];
}

export function addCardOps(config: KanbanConfig, columnId: string, card: KanbanCard): PatchOperation[] {
  const at = columnAt(config, columnId);
  return at ? [at.guard, { op: "add", path: `${at.path}/cards/-`, value: card }] : [];
}

export function editCardOps(config: KanbanConfig, cardId: string, title: string): PatchOperation[] {
  const at = cardAt(config, cardId);
  return at ? [at.guard, { op: "replace", path: `${at.path}/title`, value: title }] : [];
}

export function removeCardOps(config: KanbanConfig, cardId: string): PatchOperation[] {
  const at = cardAt(config, cardId);
  return at ? [at.guard, { op: "remove", path: at.path }] : [];
}

/** `moveCard` as operations: the card taken out, then put in at the index it lands on. */
export function moveCardOps(
  config: KanbanConfig,
  cardId: string,
  toColumnId: string,
  toIndex: number,
): PatchOperation[] {
  const from = cardAt(config, cardId);
  const target = columnAt(config, toColumnId);
  const targetIndex = config.columns.findIndex((c) => c.id === toColumnId);
  if (!from || !target) return [];
  let index = toIndex;
  if (from.column === targetIndex && from.index < toIndex) index -= 1;
  if (from.column === targetIndex && from.index === index) return [];
  // Where it can land once taken out of its column.
  const room = config.columns[targetIndex]!.cards.length - (from.column === targetIndex ? 1 : 0);
  index = Math.max(0, Math.min(index, room));
  return [from.guard, target.guard, { op: "move", from: from.path, path: `${target.path}/cards/${index}` }];
}
