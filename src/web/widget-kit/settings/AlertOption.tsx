import type { TFunction } from "i18next";
import { type ComponentProps, type ComponentType, useId } from "react";
import { useTranslation } from "react-i18next";
import { t } from "../../i18n/i18n";
import { Field } from "../../ui/fields";
import type { WidgetSettingsProps } from "./SettingsForm";

/** Where a server-side alert shows up; said under every alert option so no panel promises more. */
export const alertHint = (): string => t("widgets.settings.alertHint");

export function AlertHint({ id }: { id?: string }) {
  return (
    <p className="field-hint alert-hint" id={id}>
      {alertHint()}
    </p>
  );
}

/** An on/off alert option (Countdown `notify`, Inbox `notifyNewMail`): a checkbox with the hint tied to it. */
export function AlertToggle({
  label,
  checked,
  onChange,
  disabled = false,
  disabledReason,
}: {
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
  disabled?: boolean;
  /** Said instead of nothing when the option cannot be used yet. */
  disabledReason?: string;
}) {
  const hintId = useId();
  const reasonId = useId();
  return (
    <div className="field alert-option">
      <label className={`checkbox-row${disabled ? " is-disabled" : ""}`}>
        <input
          type="checkbox"
          checked={checked}
          disabled={disabled}
          aria-describedby={disabled && disabledReason ? `${reasonId} ${hintId}` : hintId}
          onChange={(e) => onChange(e.target.checked)}
        />
        {label}
      </label>
      {disabled && disabledReason && (
        <p className="field-hint" id={reasonId}>
          {disabledReason}
        </p>
      )}
      <AlertHint id={hintId} />
    </div>
  );
}

/** The keys of a config that hold an on/off value. */
type FlagKey<C> = { [K in keyof C]-?: C[K] extends boolean | undefined ? K : never }[keyof C];

/**
 * An alert option kept in an optional config key (`notify`, `notifyNewMail`): on stores `true`,
 * off leaves the key out, like every optional alert key.
 */
export function AlertFlag<C extends object>({
  config,
  onChange,
  flag,
  ...toggle
}: {
  config: C;
  onChange(next: C): void;
  flag: FlagKey<C>;
} & Omit<ComponentProps<typeof AlertToggle>, "checked" | "onChange">) {
  return (
    <AlertToggle
      {...toggle}
      checked={config[flag] === true}
      onChange={(on) => {
        const { [flag]: _old, ...rest } = config;
        onChange((on ? { ...rest, [flag]: true } : rest) as C);
      }}
    />
  );
}

/**
 * The settings part of a widget whose one alert is such a key (Countdown, Status). `unavailable`
 * says why it cannot be switched on yet (no date, no address), or null; one that is on can always
 * be switched off.
 */
export function alertFlagSetting<C extends object>(
  flag: FlagKey<C>,
  label: (t: TFunction) => string,
  unavailable?: (config: C, t: TFunction) => string | null,
): ComponentType<WidgetSettingsProps<C>> {
  return function AlertFlagSetting({ config, onChange }: WidgetSettingsProps<C>) {
    const { t } = useTranslation();
    const reason = config[flag] === true ? null : (unavailable?.(config, t) ?? null);
    return (
      <AlertFlag
        config={config}
        onChange={onChange}
        flag={flag}
        label={label(t)}
        disabled={reason !== null}
        disabledReason={reason ?? undefined}
      />
    );
  };
}

const minutesLabel = (m: number) =>
  m === 0
    ? t("widgets.settings.remind.atStart")
    : m % 60 === 0
      ? t("widgets.settings.remind.hoursBefore", { count: m / 60 })
      : t("widgets.settings.remind.minutesBefore", { count: m });

/**
 * A reminder lead time's options: Off ("", the key left out), then `choices`; a stored lead time
 * outside them (set through the API) is kept as a choice.
 */
export function remindOptions(
  choices: readonly number[],
  current: number | undefined,
): [value: string, label: string][] {
  const minutes: number[] = [...choices];
  if (current !== undefined && !minutes.includes(current)) minutes.push(current);
  minutes.sort((a, b) => a - b);
  return [
    ["", t("widgets.settings.remind.off")],
    ...minutes.map((m): [string, string] => [String(m), minutesLabel(m)]),
  ];
}

/** The config with the select's value applied: Off removes `remindMinutesBefore`. */
export function withRemind<C extends object>(config: C, value: string): C {
  const { remindMinutesBefore: _old, ...rest } = config as C & { remindMinutesBefore?: number };
  const minutes = Number(value);
  return (value === "" || !Number.isInteger(minutes) ? rest : { ...rest, remindMinutesBefore: minutes }) as C;
}

/** `remindMinutesBefore` (Meetings, Calendar): the server reminds that long before each event. */
export function RemindSelect<C extends { remindMinutesBefore?: number }>({
  label,
  choices,
  config,
  onChange,
}: {
  label: string;
  choices: readonly number[];
  config: C;
  onChange(next: C): void;
}) {
  return (
    <Field label={label} hint={alertHint()}>
      {(id, describedBy) => (
        <select
          id={id}
          aria-describedby={describedBy}
          value={config.remindMinutesBefore === undefined ? "" : String(config.remindMinutesBefore)}
          onChange={(e) => onChange(withRemind(config, e.target.value))}
        >
          {remindOptions(choices, config.remindMinutesBefore).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
