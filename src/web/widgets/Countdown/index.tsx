import {
  type CountdownConfig,
  countdownWidget as contract,
  DEFAULT_EMOJI,
} from "../../../contract/widgets/countdown";
import { useNow } from "../../lib/use-now";
import { Field } from "../../ui/fields";
import { Icon } from "../../ui/icons";
import { defineWidget, type WidgetProps, type WidgetSettingsProps } from "../types";
import { fromLocalInput, remaining, toLocalInput } from "./logic";
import { NotifySetting } from "./Settings";

function Countdown({ config, settings, openSettings, readOnly }: WidgetProps<CountdownConfig>) {
  const now = useNow(1000);
  if (!config.target) {
    return (
      <div className="countdown countdown-empty">
        <span className="countdown-emoji" aria-hidden="true">
          {config.emoji}
        </span>
        <p>{readOnly ? "No date set yet." : "Count down to something."}</p>
        {!readOnly && (
          <button type="button" className="button small" onClick={openSettings}>
            Set a date
          </button>
        )}
      </div>
    );
  }
  const target = new Date(config.target);
  const left = remaining(target.getTime(), now.getTime());
  const when = target.toLocaleString(undefined, {
    dateStyle: "medium",
    timeStyle: "short",
    hour12: settings.hourFormat === "12",
    timeZone: settings.timezone,
  });
  return (
    <div className={`countdown${left.ended ? " is-ended" : ""}`}>
      <span className="countdown-emoji" aria-hidden="true">
        {config.emoji}
      </span>
      {config.title && <p className="countdown-title">{config.title}</p>}
      {left.ended ? (
        <p className="countdown-ended" role="status">
          Ended
        </p>
      ) : (
        <div
          className="countdown-units"
          role="timer"
          aria-label={`${left.days} days ${left.hours} hours ${left.minutes} minutes left`}
        >
          {(
            [
              [left.days, "days"],
              [left.hours, "hrs"],
              [left.minutes, "min"],
              [left.seconds, "sec"],
            ] as const
          ).map(([value, unit]) => (
            <div key={unit} className="countdown-unit">
              <strong>{String(value).padStart(2, "0")}</strong>
              <span>{unit}</span>
            </div>
          ))}
        </div>
      )}
      <p className="countdown-when">
        <Icon name="timer" size={13} /> {when}
      </p>
    </div>
  );
}

const EMOJIS = ["🎉", "🚀", "🎂", "✈️", "🏖️", "📅", "⏰", "🎄", "💍", "🏁"];

function EmojiSetting({ config, onChange }: WidgetSettingsProps<CountdownConfig>) {
  return (
    <Field label="Emoji">
      {(id) => (
        <div className="emoji-picker">
          <input
            id={id}
            className="emoji-input"
            value={config.emoji}
            maxLength={16}
            onChange={(e) => onChange({ ...config, emoji: e.target.value || DEFAULT_EMOJI })}
          />
          {EMOJIS.map((emoji) => (
            <button
              key={emoji}
              type="button"
              className={`emoji-choice${config.emoji === emoji ? " is-selected" : ""}`}
              aria-label={`Use ${emoji}`}
              aria-pressed={config.emoji === emoji}
              onClick={() => onChange({ ...config, emoji })}
            >
              {emoji}
            </button>
          ))}
        </div>
      )}
    </Field>
  );
}

function TargetSetting({ config, onChange }: WidgetSettingsProps<CountdownConfig>) {
  return (
    <Field label="Date and time" hint="In your local time.">
      {(id, describedBy) => (
        <input
          id={id}
          type="datetime-local"
          aria-describedby={describedBy}
          value={toLocalInput(config.target)}
          onChange={(e) => {
            const target = fromLocalInput(e.target.value);
            const { target: _old, ...rest } = config;
            onChange(target ? { ...rest, target } : rest);
          }}
        />
      )}
    </Field>
  );
}

function CountdownPreview() {
  return (
    <div className="preview preview-countdown">
      <span>🚀</span>
      <strong>12d 04h 33m</strong>
    </div>
  );
}

export const countdownWidget = defineWidget(contract, {
  name: "Countdown",
  description: "Days, hours and minutes until a date, with a reminder when it ends.",
  keywords: ["timer", "event", "deadline", "date"],
  icon: "timer",
  defaultSize: { columns: 5, rows: 11 },
  minSize: { columns: 3, rows: 8 },
  title: (config) => config.title.trim() || undefined,
  Component: Countdown,
  settings: [
    { key: "title", label: "Title", placeholder: "Summer holiday" },
    EmojiSetting,
    TargetSetting,
    NotifySetting,
  ],
  Preview: CountdownPreview,
});
