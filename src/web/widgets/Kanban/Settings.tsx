import { KANBAN_PALETTE, type KanbanConfig } from "../../../contract/widgets/kanban";
import { newId } from "../../lib/ids";
import { ListEditor } from "../settings/ListEditor";
import type { WidgetSettingsProps } from "../types";

/** Columns: titles, colours, order; removing one says how many cards go with it. */
export function KanbanSettings({ config, onChange }: WidgetSettingsProps<KanbanConfig>) {
  return (
    <ListEditor
      items={config.columns}
      onChange={(columns) => onChange({ columns })}
      label={(column) => column.title}
      removeLabel="Delete column"
      empty="No columns. Add one to start the board."
      addLabel="Add column"
      onAdd={() =>
        onChange({
          columns: [
            ...config.columns,
            {
              id: newId(),
              title: "New column",
              color: KANBAN_PALETTE[config.columns.length % KANBAN_PALETTE.length]!,
              cards: [],
            },
          ],
        })
      }
      renderFields={(column, set) => (
        <>
          <div className="list-editor-inline">
            <input
              aria-label="Column title"
              value={column.title}
              maxLength={100}
              onChange={(e) => set({ title: e.target.value })}
            />
            <span className="muted nowrap">
              {column.cards.length} card{column.cards.length === 1 ? "" : "s"}
            </span>
          </div>
          <fieldset className="swatch-row">
            <legend className="visually-hidden">Colour of {column.title}</legend>
            {KANBAN_PALETTE.map((color) => (
              <label
                key={color}
                className={`swatch${color === column.color ? " is-selected" : ""}`}
                style={{ background: color }}
              >
                <input
                  type="radio"
                  name={`color-${column.id}`}
                  value={color}
                  checked={color === column.color}
                  aria-label={color}
                  onChange={() => set({ color })}
                />
              </label>
            ))}
          </fieldset>
        </>
      )}
    />
  );
}
