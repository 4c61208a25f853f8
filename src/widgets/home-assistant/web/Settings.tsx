import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSettingsRoute } from "../../../web/app/settings-route";
import { useIntegrations } from "../../../web/integrations/integrations-api";
import { newId } from "../../../web/lib/ids";
import { Field } from "../../../web/ui/fields";
import { Skeleton } from "../../../web/ui/States";
import { QueryView } from "../../../web/widget-kit/data/QueryView";
import { SearchInput } from "../../../web/widget-kit/SearchInput";
import { ListEditor } from "../../../web/widget-kit/settings/ListEditor";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import {
  HOME_ASSISTANT_ENTITIES_MAX,
  HOME_ASSISTANT_LABEL_MAX,
  type HomeAssistantConfig,
  isEntityId,
} from "../contract";
import { type EntityChoice, useEntityChoices } from "./api";

/** The picker shows this many matches; a search narrows a large house down. */
const SHOWN_MAX = 60;

/** A row as typed: its entity id is saved once it is one Home Assistant can have. */
interface Row {
  id: string;
  text: string;
  label: string;
}

const entityIdOf = (text: string) => {
  const id = text.trim().toLowerCase();
  return isEntityId(id) ? id : null;
};

/** The saved integrations of kind `homeassistant` the person may use, or where to make one. */
function IntegrationChoice({ value, onChange }: { value: string | undefined; onChange(id: string): void }) {
  const { t } = useTranslation();
  const integrations = useIntegrations();
  const settings = useSettingsRoute();
  const list = (integrations.data ?? []).filter((i) => i.kind === "homeassistant");
  if (integrations.isSuccess && list.length === 0 && !value)
    return (
      <p className="field-hint ha-settings-none">
        {t("widgets.homeAssistant.settings.none")}{" "}
        <button type="button" className="ha-link" onClick={() => settings.open("integrations")}>
          {t("widgets.homeAssistant.settings.openIntegrations")}
        </button>
      </p>
    );
  return (
    <Field label={t("widgets.homeAssistant.settings.integration")}>
      {(id) => (
        <select id={id} value={value ?? ""} onChange={(e) => onChange(e.target.value)}>
          {!value && <option value="">{t("widgets.homeAssistant.settings.choose")}</option>}
          {value && !list.some((i) => i.id === value) && (
            <option value={value}>{t("widgets.homeAssistant.settings.unknownIntegration")}</option>
          )}
          {list.map((integration) => (
            <option key={integration.id} value={integration.id}>
              {integration.owner === "instance"
                ? t("widgets.homeAssistant.settings.shared", { name: integration.name })
                : integration.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function matches(choice: EntityChoice, words: string[]) {
  const text = `${choice.entityId} ${choice.name ?? ""}`.toLowerCase();
  return words.every((word) => text.includes(word));
}

/** Every entity of the integration (asked when opened), searchable, ticked to add or remove. */
function EntityPicker({
  integrationId,
  chosen,
  full,
  onToggle,
}: {
  integrationId: string;
  chosen: ReadonlySet<string>;
  full: boolean;
  onToggle(choice: EntityChoice, add: boolean): void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState("");
  const query = useEntityChoices(integrationId, open);
  if (!open)
    return (
      <button type="button" className="button small ha-pick" onClick={() => setOpen(true)}>
        {t("widgets.homeAssistant.settings.pick")}
      </button>
    );
  return (
    <div className="ha-picker">
      <QueryView
        query={query}
        skeleton={<Skeleton height={120} width="100%" />}
        errorTitle={t("widgets.homeAssistant.settings.pickFailed")}
        upstream={{ service: "Home Assistant" }}
      >
        {(choices) => {
          const words = search.toLowerCase().split(/\s+/).filter(Boolean);
          const found = choices.filter((c) => matches(c, words));
          return (
            <>
              <SearchInput
                compact
                inForm
                aria-label={t("widgets.homeAssistant.settings.search")}
                placeholder={t("widgets.homeAssistant.settings.searchPlaceholder")}
                value={search}
                onChange={(e) => setSearch(e.target.value)}
              />
              {found.length === 0 ? (
                <p className="muted ha-picker-none">{t("widgets.homeAssistant.settings.noMatch")}</p>
              ) : (
                <ul className="ha-picker-list">
                  {found.slice(0, SHOWN_MAX).map((choice) => {
                    const checked = chosen.has(choice.entityId);
                    return (
                      <li key={choice.entityId}>
                        <label className="checkbox-row">
                          <input
                            type="checkbox"
                            checked={checked}
                            disabled={!checked && full}
                            onChange={(e) => onToggle(choice, e.target.checked)}
                          />
                          <span className="ha-picker-text">
                            <span className="ha-picker-name">{choice.name ?? choice.entityId}</span>
                            <span className="ha-picker-meta">
                              {choice.entityId} · {choice.state}
                              {choice.unit ? ` ${choice.unit}` : ""}
                            </span>
                          </span>
                        </label>
                      </li>
                    );
                  })}
                </ul>
              )}
              {found.length > SHOWN_MAX && (
                <p className="field-hint">
                  {t("widgets.homeAssistant.settings.more", { count: found.length - SHOWN_MAX })}
                </p>
              )}
            </>
          );
        }}
      </QueryView>
    </div>
  );
}

/**
 * The Home Assistant widget's settings: the integration, then its entities, picked from Home
 * Assistant's list or typed (`light.kitchen`), each with an optional label of its own.
 */
export function HomeAssistantSettings({ config, onChange }: WidgetSettingsProps<HomeAssistantConfig>) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<Row[]>(() =>
    config.entities.map((e) => ({ id: newId(), text: e.entityId, label: e.label ?? "" })),
  );
  const publish = (next: Row[]) => {
    setRows(next);
    const seen = new Set<string>();
    const entities = next.flatMap((row) => {
      const entityId = entityIdOf(row.text);
      if (!entityId || seen.has(entityId)) return [];
      seen.add(entityId);
      const label = row.label.trim();
      return [label ? { entityId, label } : { entityId }];
    });
    onChange({ ...config, entities });
  };
  const chosen = new Set(rows.flatMap((row) => entityIdOf(row.text) ?? []));
  const full = rows.length >= HOME_ASSISTANT_ENTITIES_MAX;
  const setIntegration = (id: string) => {
    const { integrationId: _old, ...rest } = config;
    onChange(id ? { ...rest, integrationId: id } : rest);
  };
  return (
    <div className="ha-settings">
      <IntegrationChoice value={config.integrationId} onChange={setIntegration} />
      {config.integrationId && (
        <EntityPicker
          integrationId={config.integrationId}
          chosen={chosen}
          full={full}
          onToggle={(choice, add) =>
            publish(
              add
                ? [...rows, { id: newId(), text: choice.entityId, label: "" }]
                : rows.filter((row) => entityIdOf(row.text) !== choice.entityId),
            )
          }
        />
      )}
      <fieldset className="field ha-entity-rows">
        <legend className="field-label">{t("widgets.homeAssistant.settings.entities")}</legend>
        <ListEditor
          items={rows}
          onChange={publish}
          label={(row) => row.label || row.text || t("widgets.homeAssistant.settings.unnamed")}
          empty={t("widgets.homeAssistant.settings.empty")}
          addLabel={t("widgets.homeAssistant.settings.add")}
          onAdd={full ? undefined : () => publish([...rows, { id: newId(), text: "", label: "" }])}
          renderFields={(row, set) => {
            const invalid = row.text.trim() !== "" && !entityIdOf(row.text);
            return (
              <>
                <input
                  aria-label={t("widgets.homeAssistant.settings.entityId")}
                  placeholder="light.kitchen"
                  value={row.text}
                  spellCheck={false}
                  autoCapitalize="off"
                  aria-invalid={invalid || undefined}
                  onChange={(e) => set({ text: e.target.value })}
                />
                {invalid && <p className="field-error">{t("widgets.homeAssistant.settings.invalid")}</p>}
                <input
                  aria-label={t("widgets.homeAssistant.settings.label")}
                  placeholder={t("widgets.homeAssistant.settings.labelPlaceholder")}
                  value={row.label}
                  maxLength={HOME_ASSISTANT_LABEL_MAX}
                  onChange={(e) => set({ label: e.target.value })}
                />
              </>
            );
          }}
        />
      </fieldset>
    </div>
  );
}
