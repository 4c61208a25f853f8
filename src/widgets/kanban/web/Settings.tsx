import { useTranslation } from "react-i18next";
import { newId } from "../../../web/lib/ids";
import { ListEditor } from "../../../web/widget-kit/settings/ListEditor";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import { KANBAN_PALETTE, type KanbanConfig } from "../contract";

/** Columns: titles, colours, order; removing one says how many cards go with it. */
export function KanbanSettings({ config, onChange }: WidgetSettingsProps<KanbanConfig>) {
  const { t } = useTranslation();
  return (
    <ListEditor
      items={config.columns}
      onChange={(columns) => onChange({ columns })}
      label={(column) => column.title}
      removeLabel={(name) => t("widgets.kanban.deleteColumnNamed", { name })}
      empty={t("widgets.kanban.settings.empty")}
      addLabel={t("widgets.kanban.settings.addColumn")}
      onAdd={() =>
        onChange({
          columns: [
            ...config.columns,
            {
              id: newId(),
              title: t("widgets.kanban.settings.newColumn"),
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
              aria-label={t("widgets.kanban.columnTitle")}
              value={column.title}
              maxLength={100}
              onChange={(e) => set({ title: e.target.value })}
            />
            <span className="muted nowrap">
              {t("widgets.kanban.cardCount", { count: column.cards.length })}
            </span>
          </div>
          <fieldset className="swatch-row">
            <legend className="visually-hidden">
              {t("widgets.kanban.colourOf", { name: column.title })}
            </legend>
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
