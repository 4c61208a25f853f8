import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { t } from "../../../web/i18n/i18n";
import { useLocale } from "../../../web/i18n/use-locale";
import { useNow } from "../../../web/lib/use-now";
import { Field } from "../../../web/ui/fields";
import { Icon } from "../../../web/ui/icons";
import { alertFlagSetting } from "../../../web/widget-kit/settings/AlertOption";
import { defineWidget, type WidgetProps, type WidgetSettingsProps } from "../../../web/widget-kit/types";
import { type CountdownConfig, countdownWidget as contract, DEFAULT_EMOJI, EMOJI_CHOICES } from "../contract";
import { formatTarget, fromLocalInput, remaining, timeLeftLabel, toLocalInput } from "./logic";

function Countdown({ config, settings, openSettings, readOnly }: WidgetProps<CountdownConfig>) {
  const now = useNow(1000);
  const { t } = useTranslation();
  const locale = useLocale();
  if (!config.target) {
    return (
      <div className="countdown countdown-empty">
        <span className="countdown-emoji" aria-hidden="true">
          {config.emoji}
        </span>
        <p>{readOnly ? t("widgets.countdown.noDate") : t("widgets.countdown.empty")}</p>
        {!readOnly && (
          <button type="button" className="button small" onClick={openSettings}>
            {t("widgets.countdown.setDate")}
          </button>
        )}
      </div>
    );
  }
  const target = new Date(config.target);
  const left = remaining(target.getTime(), now.getTime());
  const when = formatTarget(target, settings, locale);
  return (
    <div className={`countdown${left.ended ? " is-ended" : ""}`}>
      <span className="countdown-emoji" aria-hidden="true">
        {config.emoji}
      </span>
      {config.title && <p className="countdown-title">{config.title}</p>}
      {left.ended ? (
        <p className="countdown-ended" role="status">
          {t("widgets.countdown.ended")}
        </p>
      ) : (
        <div className="countdown-units" role="timer" aria-label={timeLeftLabel(left)}>
          {unitsOf(left, t).map(([value, unit, words]) => (
            <div key={unit} className="countdown-unit">
              <strong>{String(value).padStart(2, "0")}</strong>
              <span>{words}</span>
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

function EmojiSetting({ config, onChange }: WidgetSettingsProps<CountdownConfig>) {
  const { t } = useTranslation();
  return (
    <Field label={t("widgets.countdown.emoji")}>
      {(id) => (
        <div className="emoji-picker">
          <input
            id={id}
            className="emoji-input"
            value={config.emoji}
            maxLength={16}
            onChange={(e) => onChange({ ...config, emoji: e.target.value || DEFAULT_EMOJI })}
          />
          {EMOJI_CHOICES.map((emoji) => (
            <button
              key={emoji}
              type="button"
              className={`emoji-choice${config.emoji === emoji ? " is-selected" : ""}`}
              aria-label={t("widgets.countdown.useEmoji", { emoji })}
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
  const { t } = useTranslation();
  return (
    <Field label={t("widgets.countdown.dateTime")} hint={t("widgets.countdown.dateHint")}>
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
  const { t } = useTranslation();
  return (
    <div className="preview preview-countdown">
      <span>🚀</span>
      <strong>{t("widgets.countdown.preview")}</strong>
    </div>
  );
}

export default defineWidget(contract, {
  group: "time",
  words: (t) => ({ name: t("widgets.countdown.name"), description: t("widgets.countdown.description") }),
  keywords: ["timer", "event", "deadline", "date"],
  icon: "timer",
  defaultSize: { columns: 5, rows: 11 },
  minSize: { columns: 3, rows: 8 },
  title: (config) => config.title.trim() || undefined,
  Component: Countdown,
  settings: [
    // Getters: the form reads its words when it renders, in the language of that moment.
    {
      key: "title",
      get label() {
        return t("widgets.countdown.title");
      },
      get placeholder() {
        return t("widgets.countdown.titlePlaceholder");
      },
    },
    EmojiSetting,
    TargetSetting,
    // The server sends one reminder when the target passes (issue 16).
    alertFlagSetting<CountdownConfig>(
      "notify",
      (t) => t("widgets.countdown.notify"),
      (config, t) => (config.target ? null : t("widgets.countdown.setDateFirst")),
    ),
  ],
  Preview: CountdownPreview,
});

/** The four counters, each with its key (a React key, not text) and its word in the reader's language. */
function unitsOf(left: ReturnType<typeof remaining>, t: TFunction) {
  return [
    [left.days, "days", t("widgets.countdown.units.days")],
    [left.hours, "hours", t("widgets.countdown.units.hours")],
    [left.minutes, "minutes", t("widgets.countdown.units.minutes")],
    [left.seconds, "seconds", t("widgets.countdown.units.seconds")],
  ] as const;
}
