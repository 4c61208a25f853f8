import { useTranslation } from "react-i18next";
import type { SettingsTab } from "./settings-route";

/** The settings tabs' names, for the dialog's tab list and the command palette. */
export function useSettingsTabLabels(): Record<SettingsTab, string> {
  const { t } = useTranslation();
  return {
    general: t("settings.tabs.general"),
    reminders: t("settings.tabs.reminders"),
    profile: t("settings.tabs.profile"),
    connections: t("settings.tabs.connections"),
    integrations: t("settings.tabs.integrations"),
    keys: t("settings.tabs.keys"),
    sessions: t("settings.tabs.sessions"),
  };
}
