import { useCallback } from "react";
import { useLocation, useNavigate } from "react-router";

export const SETTINGS_TABS = [
  "general",
  "reminders",
  "profile",
  "connections",
  "integrations",
  "keys",
  "sessions",
] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

const PARAM = "settings";

/** How many history entries the settings dialog added, so closing it can step back over them. */
interface SettingsState {
  settingsDepth?: number;
}

function isTab(value: string | null): value is SettingsTab {
  return (SETTINGS_TABS as readonly (string | null)[]).includes(value);
}

/**
 * The settings dialog and each of its tabs have their own URL (`?settings=reminders` on the
 * page behind it): a link opens it on that tab, Back walks back through the tabs and then
 * closes it, and closing returns to the page as it was before it opened.
 */
export function useSettingsRoute() {
  const location = useLocation();
  const navigate = useNavigate();
  const value = new URLSearchParams(location.search).get(PARAM);
  const tab: SettingsTab | null = value === "" ? "general" : isTab(value) ? value : null;
  const depth = (location.state as SettingsState | null)?.settingsDepth ?? 0;

  const withTab = useCallback(
    (next: SettingsTab | null) => {
      const params = new URLSearchParams(location.search);
      if (next) params.set(PARAM, next);
      else params.delete(PARAM);
      const search = params.toString();
      return { pathname: location.pathname, search: search ? `?${search}` : "" };
    },
    [location.pathname, location.search],
  );

  const open = useCallback(
    (next: SettingsTab = "general") => {
      if (tab === next) return;
      navigate(withTab(next), { state: { settingsDepth: depth + 1 } satisfies SettingsState });
    },
    [navigate, withTab, tab, depth],
  );

  const close = useCallback(() => {
    if (depth > 0) navigate(-depth);
    else navigate(withTab(null), { replace: true });
  }, [navigate, withTab, depth]);

  return { tab, open, close };
}
