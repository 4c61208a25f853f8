import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { FALLBACK_LANGUAGE, i18n } from "../i18n/i18n";
import { Dialog } from "../ui/Dialog";
import { Icon } from "../ui/icons";
import { WIDGETS } from "../widget-kit/registry";
import type { WidgetDefinition } from "../widget-kit/types";
import { widgetDescription, widgetName } from "./widget-name";

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
  const { t } = useTranslation();
  const [query, setQuery] = useState("");
  const results = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) return WIDGETS;
    // Found by the shown name and description, and by the English ones too.
    const english = i18n.getFixedT(FALLBACK_LANGUAGE);
    return WIDGETS.filter((d) => {
      const inEnglish = d.words(english);
      return [
        widgetName(d),
        widgetDescription(d),
        inEnglish.name,
        d.type,
        inEnglish.description,
        ...d.keywords,
      ].some((text) => text.toLowerCase().includes(q));
    });
  }, [query]);

  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="lg"
      title={t("picker.title")}
      description={t("picker.description")}
    >
      <div className="picker-search">
        <Icon name="search" size={16} />
        <input
          type="search"
          aria-label={t("picker.searchLabel")}
          placeholder={t("picker.placeholder")}
          value={query}
          autoFocus
          data-autofocus
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      {results.length === 0 ? (
        <p className="muted picker-none">{t("picker.none", { query })}</p>
      ) : (
        <ul className="picker-grid">
          {results.map((definition) => {
            const { Preview } = definition;
            const name = widgetName(definition);
            const description = widgetDescription(definition);
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
                  aria-label={t("picker.addLabel", { name, description })}
                  onClick={() => onPick(definition)}
                >
                  <div className="picker-text">
                    <strong>
                      <Icon name={definition.icon} size={15} /> {name}
                    </strong>{" "}
                    <span>{description}</span>
                  </div>
                  <span
                    className="picker-add"
                    aria-hidden="true"
                    data-label={busyType === definition.type ? t("picker.adding") : t("common.add")}
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
