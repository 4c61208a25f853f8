import {
  type CSSProperties,
  type DragEvent,
  type FormEvent,
  type KeyboardEvent,
  useRef,
  useState,
} from "react";
import { useTranslation } from "react-i18next";
import { newId } from "../../../web/lib/ids";
import { Icon, IconButton } from "../../../web/ui/icons";
import { DeleteButton, InlineEdit } from "../../../web/widget-kit/ItemEditing";
import { defineWidget, type WidgetProps, withReadOnlyView } from "../../../web/widget-kit/types";
import { kanbanWidget as contract, KANBAN_PALETTE, type KanbanColumn, type KanbanConfig } from "../contract";
import {
  addCardOps,
  addColumnOps,
  editCardOps,
  findCard,
  localizedDefaults,
  moveCard,
  moveCardOps,
  removeCardOps,
  removeColumnOps,
  setColumnOps,
} from "./logic";
import { KanbanSettings } from "./Settings";

const MIME = "application/x-tessera-card";

function InlineAdd({
  label,
  placeholder,
  onAdd,
}: {
  label: string;
  placeholder: string;
  onAdd(title: string): void;
}) {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState("");
  if (!open) {
    return (
      <button type="button" className="button ghost small add-row" onClick={() => setOpen(true)}>
        <Icon name="plus" size={14} /> {label}
      </button>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim()) onAdd(value.trim());
    setValue("");
  };
  return (
    <form className="kanban-add" onSubmit={submit}>
      <input
        aria-label={placeholder}
        placeholder={placeholder}
        value={value}
        maxLength={500}
        // biome-ignore lint/a11y/noAutofocus: opened on request.
        autoFocus
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") setOpen(false);
        }}
        onBlur={() => {
          if (!value.trim()) setOpen(false);
        }}
      />
    </form>
  );
}

function ColumnHeader({
  column,
  onRename,
  onColor,
  onDelete,
}: {
  column: KanbanColumn;
  onRename(title: string): void;
  onColor(color: string): void;
  onDelete(): void;
}) {
  const { t } = useTranslation();
  const [renaming, setRenaming] = useState(false);
  const [picking, setPicking] = useState(false);
  return (
    <header className="kanban-column-header">
      <button
        type="button"
        className="kanban-color"
        style={{ background: column.color }}
        aria-label={t("widgets.kanban.colourOf", { name: column.title })}
        aria-expanded={picking}
        onClick={() => setPicking((p) => !p)}
      />
      {renaming ? (
        <InlineEdit
          className="kanban-rename"
          aria-label={t("widgets.kanban.columnTitle")}
          value={column.title}
          maxLength={100}
          onSave={onRename}
          onDone={() => setRenaming(false)}
        />
      ) : (
        <h3 className="kanban-column-title" onDoubleClick={() => setRenaming(true)}>
          {column.title}
          <span className="kanban-count">{column.cards.length}</span>
        </h3>
      )}
      <div className="row-actions">
        <IconButton
          icon="pencil"
          size={13}
          className="small"
          label={t("widgets.kanban.rename", { name: column.title })}
          onClick={() => setRenaming(true)}
        />
        <DeleteButton
          label={t("widgets.kanban.deleteColumnNamed", { name: column.title })}
          confirm={t("widgets.kanban.confirmDelete", { count: column.cards.length })}
          ask={column.cards.length > 0}
          iconSize={13}
          onDelete={onDelete}
        />
      </div>
      {picking && (
        <fieldset className="swatches">
          <legend className="visually-hidden">{t("widgets.kanban.columnColour")}</legend>
          {KANBAN_PALETTE.map((color) => (
            <button
              key={color}
              type="button"
              className={`swatch${color === column.color ? " is-selected" : ""}`}
              style={{ background: color }}
              aria-label={color}
              aria-pressed={color === column.color}
              onClick={() => {
                onColor(color);
                setPicking(false);
              }}
            />
          ))}
        </fieldset>
      )}
    </header>
  );
}

/** A visitor's view: the columns and their cards as lists, nothing to drag or change. */
function KanbanBoard({ config }: { config: KanbanConfig }) {
  const { t } = useTranslation();
  return (
    <div className="kanban-wrap">
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a visitor's board has no controls, so the keyboard scrolls its columns sideways from here (WCAG 2.1.1). */}
      <div className="kanban" tabIndex={0}>
        {config.columns.map((column) => (
          <section
            key={column.id}
            className="kanban-column"
            style={{ "--column-color": column.color } as CSSProperties}
            aria-label={t("widgets.kanban.column", { name: column.title })}
          >
            <header className="kanban-column-header">
              <span className="kanban-color is-static" aria-hidden="true" />
              <h3 className="kanban-column-title">
                {column.title}
                <span className="kanban-count">{column.cards.length}</span>
              </h3>
            </header>
            <ul className="kanban-cards">
              {column.cards.map((card) => (
                <li key={card.id} className="kanban-card">
                  <span className="kanban-card-title">{card.title}</span>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}

// Each change is sent as JSON Patch on its own column or card (widget-kit `patch`): two people
// moving or adding different cards of one board at the same time both land.
function KanbanEditor({ config, patch }: WidgetProps<KanbanConfig>) {
  const { t } = useTranslation();
  const [dragging, setDragging] = useState<string | null>(null);
  const [dropAt, setDropAt] = useState<{ column: string; index: number } | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const boardRef = useRef<HTMLDivElement>(null);

  const setColumn = (id: string, change: Partial<Pick<KanbanColumn, "title" | "color">>) =>
    patch({
      apply: (c) => ({ columns: c.columns.map((col) => (col.id === id ? { ...col, ...change } : col)) }),
      ops: (c) => setColumnOps(c, id, change),
    });
  const move = (cardId: string, column: string, index: number) =>
    patch({
      apply: (c) => moveCard(c, cardId, column, index),
      ops: (c) => moveCardOps(c, cardId, column, index),
    });

  // Hovering only moves the indicator; the board is saved once, on drop.
  const onColumnDragOver = (column: KanbanColumn) => (event: DragEvent<HTMLElement>) => {
    if (!dragging) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    const cards = [...event.currentTarget.querySelectorAll<HTMLElement>("[data-card-id]")];
    let index = cards.findIndex((el) => {
      const box = el.getBoundingClientRect();
      return event.clientY < box.top + box.height / 2;
    });
    if (index < 0) index = cards.length;
    if (dropAt?.column !== column.id || dropAt.index !== index) setDropAt({ column: column.id, index });
  };
  const onColumnDrop = (column: KanbanColumn) => (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    const cardId = dragging ?? event.dataTransfer.getData(MIME);
    const index = dropAt?.column === column.id ? dropAt.index : column.cards.length;
    setDragging(null);
    setDropAt(null);
    if (cardId) move(cardId, column.id, index);
  };

  const onCardKey = (cardId: string) => (event: KeyboardEvent<HTMLElement>) => {
    if (!event.altKey) return;
    const at = findCard(config, cardId);
    if (!at) return;
    const columns = config.columns;
    let next: { column: string; index: number } | null = null;
    if (event.key === "ArrowUp" && at.index > 0)
      next = { column: columns[at.column]!.id, index: at.index - 1 };
    if (event.key === "ArrowDown" && at.index < columns[at.column]!.cards.length - 1)
      next = { column: columns[at.column]!.id, index: at.index + 2 };
    if (event.key === "ArrowLeft" && at.column > 0)
      next = { column: columns[at.column - 1]!.id, index: at.index };
    if (event.key === "ArrowRight" && at.column < columns.length - 1)
      next = { column: columns[at.column + 1]!.id, index: at.index };
    if (!next) return;
    event.preventDefault();
    const target = next;
    move(cardId, target.column, target.index);
    requestAnimationFrame(() =>
      boardRef.current
        ?.querySelector<HTMLElement>(`[data-card-id="${CSS.escape(cardId)}"] .kanban-card-title`)
        ?.focus(),
    );
  };

  return (
    <div className="kanban-wrap">
      {/* Above the board, so a new column is one click away however many there are. */}
      <div className="kanban-toolbar">
        <InlineAdd
          label={t("widgets.kanban.addColumnButton")}
          placeholder={t("widgets.kanban.columnTitle")}
          onAdd={(title) => {
            const column = {
              id: newId(),
              title,
              color: KANBAN_PALETTE[config.columns.length % KANBAN_PALETTE.length]!,
              cards: [],
            };
            patch({ apply: (c) => ({ columns: [...c.columns, column] }), ops: () => addColumnOps(column) });
          }}
        />
      </div>
      <div className="kanban" ref={boardRef}>
        {config.columns.map((column) => (
          <section
            key={column.id}
            className={`kanban-column${dropAt?.column === column.id ? " is-drop-target" : ""}`}
            style={{ "--column-color": column.color } as CSSProperties}
            aria-label={t("widgets.kanban.column", { name: column.title })}
            onDragOver={onColumnDragOver(column)}
            onDrop={onColumnDrop(column)}
            onDragLeave={(e) => {
              if (!e.currentTarget.contains(e.relatedTarget as Node))
                setDropAt((d) => (d?.column === column.id ? null : d));
            }}
          >
            <ColumnHeader
              column={column}
              onRename={(title) => setColumn(column.id, { title })}
              onColor={(color) => setColumn(column.id, { color })}
              onDelete={() =>
                patch({
                  apply: (c) => ({ columns: c.columns.filter((col) => col.id !== column.id) }),
                  ops: (c) => removeColumnOps(c, column.id),
                })
              }
            />
            <ul className="kanban-cards">
              {column.cards.map((card, index) => (
                <li
                  key={card.id}
                  data-card-id={card.id}
                  className={`kanban-card${dragging === card.id ? " is-dragging" : ""}${
                    dropAt?.column === column.id && dropAt.index === index ? " drop-before" : ""
                  }`}
                  draggable={editing !== card.id}
                  onDragStart={(e) => {
                    e.stopPropagation();
                    e.dataTransfer.effectAllowed = "move";
                    e.dataTransfer.setData(MIME, card.id);
                    setDragging(card.id);
                  }}
                  onDragEnd={() => {
                    setDragging(null);
                    setDropAt(null);
                  }}
                >
                  {editing === card.id ? (
                    <InlineEdit
                      className="kanban-card-edit"
                      aria-label={t("widgets.kanban.cardTitle")}
                      value={card.title}
                      maxLength={500}
                      onSave={(title) =>
                        patch({
                          apply: (c) => ({
                            columns: c.columns.map((col) => ({
                              ...col,
                              cards: col.cards.map((x) => (x.id === card.id ? { ...x, title } : x)),
                            })),
                          }),
                          ops: (c) => editCardOps(c, card.id, title),
                        })
                      }
                      onDone={() => setEditing(null)}
                    />
                  ) : (
                    <>
                      <button
                        type="button"
                        className="kanban-card-title"
                        title={t("widgets.kanban.cardHint")}
                        aria-description={t("widgets.kanban.cardDescription")}
                        onClick={() => setEditing(card.id)}
                        onKeyDown={onCardKey(card.id)}
                      >
                        {card.title}
                      </button>
                      <IconButton
                        icon="x"
                        size={13}
                        className="small danger"
                        label={t("widgets.kanban.deleteCard", { name: card.title })}
                        onClick={() =>
                          patch({
                            apply: (c) => ({
                              columns: c.columns.map((col) => ({
                                ...col,
                                cards: col.cards.filter((x) => x.id !== card.id),
                              })),
                            }),
                            ops: (c) => removeCardOps(c, card.id),
                          })
                        }
                      />
                    </>
                  )}
                </li>
              ))}
              {dropAt?.column === column.id && dropAt.index === column.cards.length && (
                <li className="kanban-drop-end" aria-hidden="true" />
              )}
            </ul>
            <InlineAdd
              label={t("widgets.kanban.addCard")}
              placeholder={t("widgets.kanban.cardTitle")}
              onAdd={(title) => {
                const card = { id: newId(), title };
                patch({
                  apply: (c) => ({
                    columns: c.columns.map((col) =>
                      col.id === column.id ? { ...col, cards: [...col.cards, card] } : col,
                    ),
                  }),
                  ops: (c) => addCardOps(c, column.id, card),
                });
              }}
            />
          </section>
        ))}
      </div>
    </div>
  );
}

function KanbanPreview() {
  return (
    <div className="preview preview-kanban">
      {["#64748b", "#3b82f6", "#10b981"].map((color, i) => (
        <div key={color} className="preview-col" style={{ borderTopColor: color }}>
          {["a", "b", "c"].slice(i).map((key) => (
            <span key={key} className="preview-card" />
          ))}
        </div>
      ))}
    </div>
  );
}

const kanban = defineWidget(contract, {
  group: "content",
  words: (t) => ({ name: t("widgets.kanban.name"), description: t("widgets.kanban.description") }),
  keywords: ["board", "cards", "columns", "tasks", "project"],
  icon: "kanban",
  defaultSize: { columns: 10, rows: 19 },
  minSize: { columns: 5, rows: 11 },
  Component: withReadOnlyView(KanbanEditor, KanbanBoard),
  settings: [KanbanSettings],
  Preview: KanbanPreview,
});

// Added from the picker or the palette, a board starts with columns named in the reader's language.
export default { ...kanban, defaultConfig: localizedDefaults };
