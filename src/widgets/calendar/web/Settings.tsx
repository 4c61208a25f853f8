import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSettingsRoute } from "../../../web/app/settings-route";
import { type Integration, useIntegrations } from "../../../web/integrations/integrations-api";
import { newId } from "../../../web/lib/ids";
import { RemindSelect } from "../../../web/widget-kit/settings/AlertOption";
import { ListEditor } from "../../../web/widget-kit/settings/ListEditor";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import {
  CALENDAR_NAME_MAX,
  CALENDAR_PALETTE,
  CALENDAR_SOURCES_MAX,
  type CalendarConfig,
  type CalendarSource,
  calendarAddress,
  sourceColor,
} from "../contract";
import { REMIND_CHOICES } from "./logic";

/** Kinds whose integrations are calendars: feeds, and Sonarr's and Radarr's release calendars. */
const CALENDAR_KINDS = ["ical", "sonarr", "radarr"];

/** A source as the form edits it: what is typed stays, the saved address changes once it is usable. */
interface Row {
  id: string;
  name: string;
  mode: "url" | "integration";
  /** The address as typed. */
  text: string;
  /** The usable address kept while what is typed is not ("" for none yet). */
  saved: string;
  integrationId: string;
  color: string;
}

const toRow = (source: CalendarSource, index: number): Row => ({
  id: source.id,
  name: source.name,
  mode: source.integrationId ? "integration" : "url",
  text: source.url ?? "",
  saved: source.url ?? "",
  integrationId: source.integrationId ?? "",
  color: sourceColor(source.color, index),
});

/** What is saved of a row: a source with its address or integration, or nothing while it has neither. */
function toSource(row: Row): CalendarSource[] {
  const base = { id: row.id, name: row.name.trim(), color: row.color };
  if (row.mode === "integration")
    return row.integrationId ? [{ ...base, integrationId: row.integrationId }] : [];
  const url = calendarAddress(row.text) ?? row.saved;
  return url ? [{ ...base, url }] : [];
}

/** The calendars: a name, a feed's address or a saved `ical` integration, and a colour each. */
export function CalendarSourcesSetting({ config, onChange }: WidgetSettingsProps<CalendarConfig>) {
  const { t } = useTranslation();
  const integrations = useIntegrations();
  const settings = useSettingsRoute();
  // Without the integrations API (or before it answers) only addresses can be chosen.
  const feeds = (integrations.data ?? []).filter((i) => CALENDAR_KINDS.includes(i.kind));
  const [rows, setRows] = useState<Row[]>(() => config.sources.map(toRow));
  const publish = (next: Row[]) => {
    setRows(next);
    onChange({ ...config, sources: next.flatMap(toSource) });
  };
  const add = () =>
    publish([
      ...rows,
      {
        id: newId(),
        name: "",
        mode: "url",
        text: "",
        saved: "",
        integrationId: "",
        color: CALENDAR_PALETTE[rows.length % CALENDAR_PALETTE.length]!,
      },
    ]);
  return (
    <fieldset className="field calendar-sources">
      <legend className="field-label">{t("widgets.calendar.settings.sources")}</legend>
      <ListEditor
        items={rows}
        onChange={publish}
        label={(row) => row.name || t("widgets.calendar.fallbackName")}
        empty={t("widgets.calendar.settings.noSources")}
        addLabel={t("widgets.calendar.settings.add")}
        onAdd={rows.length < CALENDAR_SOURCES_MAX ? add : undefined}
        renderFields={(row, set) => <SourceFields row={row} set={set} feeds={feeds} />}
      />
      {feeds.length === 0 && (
        <p className="field-hint">
          {t("widgets.calendar.settings.passwordHint")}{" "}
          <button type="button" className="calendar-link" onClick={() => settings.open("integrations")}>
            {t("widgets.calendar.settings.openIntegrations")}
          </button>
        </p>
      )}
    </fieldset>
  );
}

function SourceFields({
  row,
  set,
  feeds,
}: {
  row: Row;
  set(patch: Partial<Row>): void;
  feeds: Integration[];
}) {
  const { t } = useTranslation();
  const group = useId();
  const invalid = row.mode === "url" && row.text.trim() !== "" && !calendarAddress(row.text);
  const canChoose = feeds.length > 0 || row.mode === "integration";
  return (
    <div className="calendar-source-fields">
      <input
        aria-label={t("widgets.calendar.settings.name")}
        placeholder={t("widgets.calendar.settings.namePlaceholder")}
        value={row.name}
        maxLength={CALENDAR_NAME_MAX}
        onChange={(e) => set({ name: e.target.value })}
      />
      {canChoose && (
        <div className="radio-row">
          <label className="checkbox-row">
            <input
              type="radio"
              name={group}
              checked={row.mode === "url"}
              onChange={() => set({ mode: "url" })}
            />
            {t("widgets.calendar.settings.byAddress")}
          </label>
          <label className="checkbox-row">
            <input
              type="radio"
              name={group}
              checked={row.mode === "integration"}
              onChange={() =>
                set({ mode: "integration", integrationId: row.integrationId || feeds[0]?.id || "" })
              }
            />
            {t("widgets.calendar.settings.byIntegration")}
          </label>
        </div>
      )}
      {row.mode === "url" ? (
        <>
          <input
            aria-label={t("widgets.calendar.settings.address")}
            placeholder="calendar.example.com/basic.ics"
            inputMode="url"
            value={row.text}
            aria-invalid={invalid ? true : undefined}
            onChange={(e) => set({ text: e.target.value })}
          />
          {invalid && (
            <p className="field-error">
              {row.saved ? t("widgets.settings.address.invalidKept") : t("widgets.calendar.settings.invalid")}
            </p>
          )}
        </>
      ) : (
        <select
          aria-label={t("widgets.calendar.settings.integration")}
          value={row.integrationId}
          onChange={(e) => set({ integrationId: e.target.value })}
        >
          {row.integrationId === "" && (
            <option value="">{t("widgets.calendar.settings.chooseIntegration")}</option>
          )}
          {row.integrationId !== "" && !feeds.some((f) => f.id === row.integrationId) && (
            <option value={row.integrationId}>{t("widgets.calendar.settings.unknownIntegration")}</option>
          )}
          {feeds.map((feed) => (
            <option key={feed.id} value={feed.id}>
              {feed.owner === "instance"
                ? t("widgets.calendar.settings.instanceIntegration", { name: feed.name })
                : feed.name}
            </option>
          ))}
        </select>
      )}
      <fieldset className="swatch-row">
        <legend className="visually-hidden">
          {t("widgets.calendar.settings.colourOf", { name: row.name || t("widgets.calendar.fallbackName") })}
        </legend>
        {CALENDAR_PALETTE.map((color) => (
          <label
            key={color}
            className={`swatch${color === row.color ? " is-selected" : ""}`}
            style={{ background: color }}
          >
            <input
              type="radio"
              name={`${group}-color`}
              value={color}
              checked={color === row.color}
              aria-label={color}
              onChange={() => set({ color })}
            />
          </label>
        ))}
      </fieldset>
    </div>
  );
}

/** `remindMinutesBefore`: the server reminds before each timed event of the widget's calendars. */
export function CalendarRemindSetting({ config, onChange }: WidgetSettingsProps<CalendarConfig>) {
  const { t } = useTranslation();
  return (
    <RemindSelect
      label={t("widgets.calendar.settings.remind")}
      choices={REMIND_CHOICES}
      config={config}
      onChange={onChange}
    />
  );
}
