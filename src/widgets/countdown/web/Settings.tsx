import { useTranslation } from "react-i18next";
import { AlertToggle } from "../../../web/widget-kit/settings/AlertOption";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import type { CountdownConfig } from "../contract";

/** `notify`: the server sends one reminder when the target passes (issue 16). */
export function NotifySetting({ config, onChange }: WidgetSettingsProps<CountdownConfig>) {
  const { t } = useTranslation();
  return (
    <AlertToggle
      label={t("widgets.countdown.notify")}
      checked={config.notify === true}
      // Off is stored as the key left out, like every optional alert key.
      onChange={(on) => {
        const { notify: _old, ...rest } = config;
        onChange(on ? { ...rest, notify: true } : rest);
      }}
      disabled={!config.target && config.notify !== true}
      disabledReason={t("widgets.countdown.setDateFirst")}
    />
  );
}
