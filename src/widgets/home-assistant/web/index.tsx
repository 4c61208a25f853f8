import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { t as translate } from "../../../web/i18n/i18n";
import { useLocale } from "../../../web/i18n/use-locale";
import { useNow } from "../../../web/lib/use-now";
import { Icon } from "../../../web/ui/icons";
import { useToasts } from "../../../web/ui/Toasts";
import { relativeTime } from "../../../web/widget-kit/data/format";
import { IntegrationFrame } from "../../../web/widget-kit/data/IntegrationFrame";
import { type IntegrationEnvelope, useIntegrationData } from "../../../web/widget-kit/data/integration-data";
import { defineWidget, type WidgetProps } from "../../../web/widget-kit/types";
import {
  homeAssistantWidget as contract,
  type HomeAssistantConfig,
  type HomeAssistantData,
  type HomeAssistantEntityState,
} from "../contract";
import { toggleEntity } from "./api";
import "./home-assistant.css";
import { describeHomeAssistantError, entityName, stateWords, switchable } from "./logic";
import { HomeAssistantSettings } from "./Settings";

/** The switch of a row, for editors: the new state comes from Home Assistant's answer, not a guess. */
function EntitySwitch({
  entity,
  name,
  allowed,
  busy,
  hintId,
  onToggle,
}: {
  entity: HomeAssistantEntityState;
  name: string;
  allowed: boolean;
  busy: boolean;
  hintId: string;
  onToggle(): void;
}) {
  const { t } = useTranslation();
  const usable = allowed && switchable(entity) && !busy;
  return (
    <label className={`ha-switch${busy ? " is-busy" : ""}`}>
      <input
        type="checkbox"
        role="switch"
        checked={entity.state === "on"}
        aria-checked={entity.state === "on"}
        aria-label={t("widgets.homeAssistant.switchLabel", { name })}
        aria-describedby={allowed ? undefined : hintId}
        aria-busy={busy || undefined}
        disabled={!usable}
        title={allowed ? undefined : t("widgets.homeAssistant.actionsOff")}
        onChange={onToggle}
      />
      <span className="ha-switch-track" aria-hidden="true" />
    </label>
  );
}

function EntityRows({
  widgetId,
  config,
  data,
  queryKey,
  readOnly,
}: {
  widgetId: string;
  config: HomeAssistantConfig;
  data: HomeAssistantData;
  queryKey: QueryKey;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const now = useNow(30_000).getTime();
  const hintId = useId();
  const client = useQueryClient();
  const toasts = useToasts();
  const byId = new Map(config.entities.map((e) => [e.entityId, e]));
  const toggle = useMutation({
    mutationFn: (entityId: string) => toggleEntity(widgetId, entityId),
    onSuccess: ({ result }) => {
      client.setQueryData<IntegrationEnvelope<HomeAssistantData>>(queryKey, (old) =>
        old
          ? {
              ...old,
              data: {
                ...old.data,
                entities: old.data.entities.map((e) =>
                  e.entityId === result.entityId
                    ? { ...e, state: result.state, lastChanged: result.lastChanged ?? e.lastChanged }
                    : e,
                ),
              },
            }
          : old,
      );
      void client.invalidateQueries({ queryKey });
    },
    onError: (error, entityId) => {
      const entity = data.entities.find((e) => e.entityId === entityId);
      const name = entity ? entityName(byId.get(entityId), entity) : entityId;
      toasts.show({
        tone: "error",
        key: `ha-toggle-${widgetId}`,
        message: t("widgets.homeAssistant.toggleFailed", {
          name,
          reason: describeHomeAssistantError(error).message,
        }),
      });
    },
  });
  const editing = !readOnly;
  const showHint = editing && !data.actions && data.entities.some((e) => e.togglable);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: its own scroll region, so the keyboard reaches rows past the card's height (WCAG 2.1.1), as a viewer has no control inside to tab to.
    <section className="ha" tabIndex={0} aria-label={t("widgets.homeAssistant.listLabel")}>
      {showHint && (
        <p className="ha-hint" id={hintId} role="note">
          <Icon name="shield" size={13} /> {t("widgets.homeAssistant.actionsOffHint")}
        </p>
      )}
      <ul className="ha-entities">
        {data.entities.map((entity) => {
          const name = entityName(byId.get(entity.entityId), entity);
          const changed = entity.lastChanged ? Date.parse(entity.lastChanged) : null;
          const busy = toggle.isPending && toggle.variables === entity.entityId;
          return (
            <li
              key={entity.entityId}
              className={`ha-entity${entity.state === "on" ? " is-on" : ""}${entity.found ? "" : " is-missing"}`}
              data-entity-id={entity.entityId}
            >
              <span className="ha-text">
                <span className="ha-name" title={entity.entityId}>
                  {name}
                </span>
                <span className="ha-meta">
                  {changed !== null && entity.lastChanged ? (
                    <time dateTime={entity.lastChanged} title={new Date(changed).toLocaleString(locale)}>
                      {t("widgets.homeAssistant.since", { ago: relativeTime(changed, now) })}
                    </time>
                  ) : (
                    entity.entityId
                  )}
                </span>
              </span>
              <span className="ha-state">
                {!entity.found && <Icon name="alert" size={13} />}
                {stateWords(entity, locale)}
              </span>
              {editing && entity.togglable && entity.found && (
                <EntitySwitch
                  entity={entity}
                  name={name}
                  allowed={data.actions}
                  busy={busy}
                  hintId={hintId}
                  onToggle={() => toggle.mutate(entity.entityId)}
                />
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function HomeAssistantWidget({ widget, config, readOnly, openSettings }: WidgetProps<HomeAssistantConfig>) {
  const { t } = useTranslation();
  const data = useIntegrationData<HomeAssistantData>({
    widget,
    asks: contract.data.visitorQuery(config),
    name: "home-assistant",
    refreshMs: config.refreshSeconds * 1000,
  });
  return (
    <IntegrationFrame
      data={data}
      readOnly={readOnly}
      openSettings={openSettings}
      empty={{
        icon: "building",
        text: t("widgets.homeAssistant.empty"),
        readOnlyText: t("widgets.homeAssistant.emptyReadOnly"),
        setUp: t("widgets.homeAssistant.setUp"),
      }}
      errorTitle={t("widgets.homeAssistant.couldNotLoad")}
      describeError={describeHomeAssistantError}
      label={t("widgets.homeAssistant.dataLabel")}
      upstream={{ service: "Home Assistant" }}
    >
      {(shown) => (
        <EntityRows
          widgetId={widget.id}
          config={config}
          data={shown}
          queryKey={data.queryKey}
          readOnly={readOnly}
        />
      )}
    </IntegrationFrame>
  );
}

/** The picker's sample reading, the same in every language. */
const SAMPLE_TEMPERATURE = "21.5 °C";

function HomeAssistantPreview() {
  const { t } = useTranslation();
  return (
    <div className="preview preview-ha" aria-hidden="true">
      <span>{t("widgets.homeAssistant.preview.light")}</span>
      <span className="ha-preview-switch is-on" />
      <span>{t("widgets.homeAssistant.preview.temperature")}</span>
      <span>{SAMPLE_TEMPERATURE}</span>
    </div>
  );
}

export default defineWidget(contract, {
  group: "data",
  words: (t) => ({
    name: t("widgets.homeAssistant.name"),
    description: t("widgets.homeAssistant.description"),
  }),
  keywords: ["home assistant", "hass", "smart home", "lights", "switch", "sensor", "homelab"],
  icon: "building",
  defaultSize: { columns: 6, rows: 18 },
  minSize: { columns: 3, rows: 6 },
  Component: HomeAssistantWidget,
  settings: [
    HomeAssistantSettings,
    {
      key: "refreshSeconds",
      label: () => translate("widgets.homeAssistant.refresh.label"),
      hint: () => translate("widgets.homeAssistant.refresh.hint"),
    },
  ],
  Preview: HomeAssistantPreview,
});
