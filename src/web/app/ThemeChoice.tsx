import { useTranslation } from "react-i18next";
import type { Theme } from "../lib/app-settings";
import { useAppSettings, useUpdateSettings } from "../lib/queries";
import { ChoiceGroup } from "../ui/ChoiceGroup";
import { Icon, type IconName } from "../ui/icons";

const THEMES: { value: Theme; icon: IconName }[] = [
  { value: "light", icon: "sun" },
  { value: "dark", icon: "moon" },
  { value: "system", icon: "monitor" },
];

/** Light, dark or the system's: applied and saved as soon as it is picked. */
export function ThemeChoice({
  legend,
  iconSize,
  autoFocus = false,
}: {
  legend: string;
  iconSize: number;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const settings = useAppSettings();
  const update = useUpdateSettings();
  const label: Record<Theme, string> = {
    light: t("settings.theme.light"),
    dark: t("settings.theme.dark"),
    system: t("settings.theme.system"),
  };
  return (
    <ChoiceGroup
      legend={legend}
      autoFocus={autoFocus}
      value={settings.theme}
      options={THEMES.map((theme) => ({
        ...theme,
        label: label[theme.value],
        icon: <Icon name={theme.icon} size={iconSize} />,
      }))}
      onChange={(theme) => update.updateConfig({ theme })}
    />
  );
}
