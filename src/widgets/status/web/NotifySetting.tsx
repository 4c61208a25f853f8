import { useTranslation } from "react-i18next";
import { AlertToggle } from "../../../web/widget-kit/settings/AlertOption";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import type { StatusConfig } from "../contract";

/** `notify`: the server's watch pass sends a notification when an address goes down or comes back. */
export function StatusNotifySetting({ config, onChange }: WidgetSettingsProps<StatusConfig>) {
  const { t } = useTranslation();
  return (
    <AlertToggle
      label={t("widgets.status.settings.notify")}
      checked={config.notify === true}
      // Off is stored as the key left out, like every optional alert key.
      onChange={(on) => {
        const { notify: _old, ...rest } = config;
        onChange(on ? { ...rest, notify: true } : rest);
      }}
      disabled={config.checks.length === 0 && config.notify !== true}
      disabledReason={t("widgets.status.settings.notifyNeedsAddress")}
    />
  );
}
