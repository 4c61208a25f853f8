import { useMemo, useState } from "react";
import { Dialog } from "../ui/Dialog";
import { Icon } from "../ui/icons";
import { WIDGETS } from "../widgets/registry";
import type { WidgetDefinition } from "../widgets/types";

export function WidgetPicker({
  open,
  onClose,
  onPick,
  busyType,
}: {
  open: boolean;
  onClose(): void;
  onPick(definition: WidgetDefinition<object>): void;
  busyType: string | null;
}) {
  const [query, setQuery] = useState("");
  const results = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) return WIDGETS;
    return WIDGETS.filter((d) =>
      [d.name, d.type, d.description, ...d.keywords].some((text) => text.toLowerCase().includes(q)),
    );
  }, [query]);

  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="lg"
      title="Add a widget"
      description="It goes in the first free spot; drag it wherever you like."
    >
      <div className="picker-search">
        <Icon name="search" size={16} />
        <input
          type="search"
          aria-label="Search widgets"
          placeholder="Search: time, tasks, links…"
          value={query}
          autoFocus
          data-autofocus
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      {results.length === 0 ? (
        <p className="muted picker-none">No widget matches “{query}”.</p>
      ) : (
        <ul className="picker-grid">
          {results.map((definition) => {
            const { Preview } = definition;
            return (
              <li key={definition.type} className="picker-item">
                {/* Beside the button, drawn over its top: the sample's words are not the button's
                    label, and visible text inside a button must be part of its name (WCAG 2.5.3). */}
                <div className="picker-preview" aria-hidden="true">
                  <Preview />
                </div>
                <button
                  type="button"
                  className="picker-card"
                  disabled={busyType !== null}
                  aria-label={`Add ${definition.name}: ${definition.description}`}
                  onClick={() => onPick(definition)}
                >
                  <div className="picker-text">
                    <strong>
                      <Icon name={definition.icon} size={15} /> {definition.name}
                    </strong>{" "}
                    <span>{definition.description}</span>
                  </div>
                  <span
                    className="picker-add"
                    aria-hidden="true"
                    data-label={busyType === definition.type ? "Adding…" : "Add"}
                  />
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </Dialog>
  );
}
