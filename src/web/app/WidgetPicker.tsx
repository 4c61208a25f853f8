import { useQuery } from "@tanstack/react-query";
import { type ChangeEvent, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FALLBACK_LANGUAGE, i18n } from "../i18n/i18n";
import { Dialog } from "../ui/Dialog";
import { Icon } from "../ui/icons";
import { WIDGETS } from "../widget-kit/registry";
import type { WidgetDefinition, WidgetRecipe } from "../widget-kit/types";
import { widgetDescription, widgetName } from "./widget-name";

/** Every listed type's templates, with the type they make, loaded when the picker first opens. */
async function loadTemplates(): Promise<{ definition: WidgetDefinition<object>; recipe: WidgetRecipe }[]> {
  const lists = await Promise.all(
    WIDGETS.map(async (definition) =>
      ((await definition.templates?.()) ?? []).map((recipe) => ({ definition, recipe })),
    ),
  );
  return lists.flat();
}

export function WidgetPicker({
  open,
  onClose,
  onPick,
  onImport,
  busyType,
}: {
  open: boolean;
  onClose(): void;
  /** `config`: a template's, instead of the type's defaults. */
  onPick(definition: WidgetDefinition<object>, config?: object): void;
  /** A `.tessera.widget` file the person chose. */
  onImport(file: File): void;
  busyType: string | null;
}) {
  const { t } = useTranslation();
  const [query, setQuery] = useState("");
  const fileInput = useRef<HTMLInputElement>(null);
  const templates = useQuery({
    queryKey: ["widget-templates"],
    queryFn: loadTemplates,
    enabled: open,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const shownTemplates = useMemo(() => {
    const q = query.trim().toLowerCase();
    const all = templates.data ?? [];
    return q
      ? all.filter(({ recipe }) => `${recipe.name} ${recipe.description}`.toLowerCase().includes(q))
      : all;
  }, [templates.data, query]);
  const chosen = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (file) onImport(file);
  };
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
      {results.length === 0 && shownTemplates.length === 0 ? (
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
      {shownTemplates.length > 0 && (
        <section className="picker-templates" aria-labelledby="picker-templates-title">
          <h3 id="picker-templates-title">{t("picker.templates.title")}</h3>
          <p className="muted">{t("picker.templates.description")}</p>
          <ul className="picker-template-list">
            {shownTemplates.map(({ definition, recipe }) => (
              <li key={`${definition.type}/${recipe.id}`}>
                <button
                  type="button"
                  className="picker-template"
                  disabled={busyType !== null}
                  aria-label={t("picker.templates.add", {
                    name: recipe.name,
                    description: recipe.description,
                  })}
                  onClick={() => onPick(definition, recipe.config)}
                >
                  <strong>
                    <Icon name={definition.icon} size={14} /> {recipe.name}
                  </strong>
                  <span>{recipe.description}</span>
                  {recipe.secretNames.length > 0 && (
                    <span className="picker-template-needs">
                      {t("picker.templates.needs", { secrets: recipe.secretNames.join(", ") })}
                    </span>
                  )}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <div className="picker-import">
        <button type="button" className="button ghost small" onClick={() => fileInput.current?.click()}>
          <Icon name="upload" size={15} /> {t("picker.importFile")}
        </button>
        <span className="muted">{t("picker.importHint")}</span>
        <input
          ref={fileInput}
          type="file"
          accept=".tessera.widget,.json,application/json"
          hidden
          onChange={chosen}
          data-testid="widget-file-input"
        />
      </div>
    </Dialog>
  );
}
