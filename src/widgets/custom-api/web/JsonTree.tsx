import { type KeyboardEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { type PathSegment, pathOf } from "./paths";

/** Children drawn per object or array; the preview is cut to fit already, this keeps it quick. */
const CHILDREN_MAX = 50;

export interface TreeActions {
  /** A value was chosen: make it a field. */
  pick(path: PathSegment[], value: unknown): void;
  /** An array was chosen: show its items as a list or table. */
  list(path: PathSegment[], items: unknown[]): void;
}

const scalarText = (value: unknown) => {
  const text = typeof value === "string" ? JSON.stringify(value) : String(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
};

function Branch({
  name,
  value,
  path,
  depth,
  actions,
}: {
  name: string;
  value: unknown;
  path: PathSegment[];
  depth: number;
  actions: TreeActions;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(depth < 2);
  const query = pathOf(path);
  if (value === null || typeof value !== "object")
    return (
      <li className="capi-tree-leaf">
        <button
          type="button"
          className="capi-tree-pick"
          aria-label={t("widgets.customAPI.tree.pick", { query, value: scalarText(value) })}
          onClick={() => actions.pick(path, value)}
        >
          <span className="capi-tree-key">{name}</span>
          <span className={`capi-tree-value is-${value === null ? "null" : typeof value}`}>
            {scalarText(value)}
          </span>
        </button>
      </li>
    );
  const entries: [PathSegment, unknown][] = Array.isArray(value)
    ? value.map((item, i) => [i, item])
    : Object.entries(value as Record<string, unknown>);
  const summary = Array.isArray(value)
    ? t("widgets.customAPI.tree.items", { count: value.length })
    : t("widgets.customAPI.tree.keys", { count: entries.length });
  return (
    <li className="capi-tree-branch">
      <span className="capi-tree-row">
        <button
          type="button"
          className="capi-tree-toggle"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
        >
          <span className={`capi-tree-caret${open ? " is-open" : ""}`} aria-hidden="true" />
          <span className="capi-tree-key">{name}</span>
          <span className="capi-tree-summary">{summary}</span>
        </button>
        {Array.isArray(value) && value.length > 0 && (
          <button
            type="button"
            className="capi-tree-list button small"
            onClick={() => actions.list(path, value)}
            aria-label={t("widgets.customAPI.tree.showAsListOf", { query })}
          >
            {t("widgets.customAPI.tree.showAsList")}
          </button>
        )}
      </span>
      {open && (
        <ul className="capi-tree-children">
          {entries.slice(0, CHILDREN_MAX).map(([key, child]) => (
            <Branch
              key={String(key)}
              name={typeof key === "number" ? `[${key}]` : key}
              value={child}
              path={[...path, key]}
              depth={depth + 1}
              actions={actions}
            />
          ))}
          {entries.length > CHILDREN_MAX && (
            <li className="capi-tree-more">
              {t("widgets.customAPI.tree.more", { count: entries.length - CHILDREN_MAX })}
            </li>
          )}
        </ul>
      )}
    </li>
  );
}

/** Up and Down move between the tree's buttons; Tab leaves it. */
function moveFocus(event: KeyboardEvent<HTMLUListElement>) {
  if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
  const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>("button")];
  const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
  if (at < 0) return;
  event.preventDefault();
  buttons[Math.max(0, Math.min(buttons.length - 1, at + (event.key === "ArrowDown" ? 1 : -1)))]?.focus();
}

/**
 * The preview's JSON as a tree to pick from: a value becomes a field (with the JMESPath query to
 * it), an array a list. Plain buttons, so keyboard and screen readers need nothing special;
 * the arrow keys move between them too.
 */
export function JsonTree({ json, actions }: { json: unknown; actions: TreeActions }) {
  const { t } = useTranslation();
  return (
    <ul className="capi-tree" aria-label={t("widgets.customAPI.tree.label")} onKeyDown={moveFocus}>
      <Branch name={t("widgets.customAPI.tree.root")} value={json} path={[]} depth={0} actions={actions} />
    </ul>
  );
}
