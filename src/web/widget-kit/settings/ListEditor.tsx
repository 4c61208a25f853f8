import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { moveItem } from "../../lib/reorder";
import { Icon } from "../../ui/icons";

/**
 * The body of a list-shaped settings panel: each item's fields plus move up, move down and
 * remove buttons, so everything a drag does inline can also be done from the keyboard here.
 */
export function ListEditor<T extends { id: string }>({
  items,
  onChange,
  label,
  renderFields,
  onAdd,
  addLabel,
  empty,
  removeLabel,
}: {
  items: T[];
  onChange(items: T[]): void;
  /** Names an item in button labels ("Move Groceries up"). */
  label(item: T): string;
  renderFields(item: T, set: (patch: Partial<T>) => void, index: number): ReactNode;
  onAdd?(): void;
  addLabel?: string;
  empty: string;
  /**
   * The remove button's name for an item's name ("Delete column Doing"), translated; "Remove …"
   * when absent. A plain string is put before the name (English only: other languages order differently).
   */
  removeLabel?: string | ((name: string) => string);
}) {
  const { t } = useTranslation();
  const removeName = (name: string) =>
    typeof removeLabel === "function"
      ? removeLabel(name)
      : removeLabel
        ? `${removeLabel} ${name}`
        : t("widgets.settings.list.remove", { name });
  const set = (id: string) => (patch: Partial<T>) =>
    onChange(items.map((x) => (x.id === id ? { ...x, ...patch } : x)));
  return (
    <div className="list-editor">
      {items.length === 0 ? (
        <p className="muted list-editor-empty">{empty}</p>
      ) : (
        <ol>
          {items.map((item, index) => (
            <li key={item.id} className="list-editor-row">
              <div className="list-editor-fields">{renderFields(item, set(item.id), index)}</div>
              <div className="list-editor-actions">
                <button
                  type="button"
                  className="icon-button small"
                  aria-label={t("widgets.settings.list.moveUp", { name: label(item) })}
                  disabled={index === 0}
                  onClick={() => onChange(moveItem(items, index, index - 1))}
                >
                  <Icon name="arrowUp" size={14} />
                </button>
                <button
                  type="button"
                  className="icon-button small"
                  aria-label={t("widgets.settings.list.moveDown", { name: label(item) })}
                  disabled={index === items.length - 1}
                  onClick={() => onChange(moveItem(items, index, index + 1))}
                >
                  <Icon name="arrowDown" size={14} />
                </button>
                <button
                  type="button"
                  className="icon-button small danger"
                  aria-label={removeName(label(item))}
                  onClick={() => onChange(items.filter((x) => x.id !== item.id))}
                >
                  <Icon name="trash" size={14} />
                </button>
              </div>
            </li>
          ))}
        </ol>
      )}
      {onAdd && (
        <button type="button" className="button ghost small" onClick={onAdd}>
          <Icon name="plus" size={14} /> {addLabel}
        </button>
      )}
    </div>
  );
}
