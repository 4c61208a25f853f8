import { useState } from "react";
import { useTranslation } from "react-i18next";
import { newId } from "../../../web/lib/ids";
import { Skeleton } from "../../../web/ui/States";
import { QueryView } from "../../../web/widget-kit/data/QueryView";
import { IntegrationPicker, withIntegration } from "../../../web/widget-kit/settings/IntegrationPicker";
import { ListEditor } from "../../../web/widget-kit/settings/ListEditor";
import { SearchChecklist } from "../../../web/widget-kit/settings/SearchChecklist";
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

/** The integration kinds the widget reads. */
const HOME_ASSISTANT_KINDS = ["homeassistant"];

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
        {(choices) => (
          <SearchChecklist
            choices={choices}
            keyOf={(choice) => choice.entityId}
            searchText={(choice) => `${choice.entityId} ${choice.name ?? ""}`}
            chosen={chosen}
            full={full}
            onToggle={onToggle}
            shownMax={SHOWN_MAX}
            name={(choice) => choice.name ?? choice.entityId}
            meta={(choice) => `${choice.entityId} · ${choice.state}${choice.unit ? ` ${choice.unit}` : ""}`}
            words={{
              search: t("widgets.homeAssistant.settings.search"),
              searchPlaceholder: t("widgets.homeAssistant.settings.searchPlaceholder"),
              noMatch: t("widgets.homeAssistant.settings.noMatch"),
              more: (count) => t("widgets.homeAssistant.settings.more", { count }),
            }}
          />
        )}
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
  return (
    <div className="ha-settings">
      <IntegrationPicker
        kinds={HOME_ASSISTANT_KINDS}
        value={config.integrationId}
        onChange={(id) => onChange(withIntegration(config, id))}
        words={{
          label: t("widgets.homeAssistant.settings.integration"),
          none: t("widgets.homeAssistant.settings.none"),
          openIntegrations: t("widgets.homeAssistant.settings.openIntegrations"),
          choose: t("widgets.homeAssistant.settings.choose"),
          unknown: t("widgets.homeAssistant.settings.unknownIntegration"),
          shared: (name) => t("widgets.homeAssistant.settings.shared", { name }),
        }}
      />
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
