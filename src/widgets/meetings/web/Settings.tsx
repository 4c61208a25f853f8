import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { Calendar } from "../../../web/lib/data-api";
import { Skeleton } from "../../../web/ui/States";
import { QueryView } from "../../../web/widget-kit/data/QueryView";
import { RemindSelect } from "../../../web/widget-kit/settings/AlertOption";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import { MAX_CALENDARS, type MeetingsConfig } from "../contract";
import { REMIND_CHOICES } from "./logic";
import { calendarsQuery } from "./queries";

export function MeetingsSettings({ config, onChange }: WidgetSettingsProps<MeetingsConfig>) {
  const { t } = useTranslation();
  const calendars = useQuery(calendarsQuery);
  return (
    <QueryView
      query={calendars}
      skeleton={<Skeleton height={120} width="100%" />}
      errorTitle={t("widgets.meetings.settings.calendarsFailed")}
      // The widget's own words when the account went missing meanwhile.
      connect={{ provider: "suite", purpose: t("widgets.meetings.purpose") }}
    >
      {(list) => <CalendarsSetting calendars={list} config={config} onChange={onChange} />}
    </QueryView>
  );
}

function CalendarsSetting({
  calendars,
  config,
  onChange,
}: { calendars: Calendar[] } & Pick<WidgetSettingsProps<MeetingsConfig>, "config" | "onChange">) {
  const { t } = useTranslation();
  const all = calendars.map((c) => c.id);
  const chosen = new Set(config.calendars ?? all);
  const toggle = (id: string) => {
    const next = all.filter((c) => (c === id ? !chosen.has(c) : chosen.has(c)));
    if (next.length === 0) return;
    // Every calendar is stored as "all", so calendars added later show up too.
    const { calendars: _old, ...rest } = config;
    onChange(next.length === all.length ? rest : { ...rest, calendars: next.slice(0, MAX_CALENDARS) });
  };
  return (
    <>
      <fieldset className="field">
        <legend className="field-label">{t("widgets.meetings.settings.calendars")}</legend>
        <ul className="check-list">
          {calendars.map((c) => (
            <li key={c.id}>
              <label className="checkbox-row">
                <input
                  type="checkbox"
                  checked={chosen.has(c.id)}
                  // At least one calendar stays chosen; an empty list would show nothing.
                  disabled={chosen.has(c.id) && chosen.size === 1}
                  onChange={() => toggle(c.id)}
                />
                <span className="calendar-swatch" style={{ background: c.color ?? "var(--accent)" }} />
                {c.name}
                {c.primary && <span className="muted"> {t("widgets.meetings.settings.primary")}</span>}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <RemindSelect
        label={t("widgets.meetings.settings.remind")}
        choices={REMIND_CHOICES}
        config={config}
        onChange={onChange}
      />
    </>
  );
}
