import { useEffect } from "react";
import type { Theme } from "./app-settings";

const STORAGE_KEY = "tessera:theme";

function resolve(theme: Theme): "light" | "dark" {
  if (theme !== "system") return theme;
  return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

export function applyTheme(theme: Theme) {
  const root = document.documentElement;
  root.dataset.theme = resolve(theme);
  root.style.colorScheme = resolve(theme);
  try {
    localStorage.setItem(STORAGE_KEY, theme);
  } catch {
    // Private mode: the theme still applies, it is just not remembered for the next first paint.
  }
}

/** Before React renders: the last theme used, so a dark-theme user never sees a white flash. */
export function applyRememberedTheme() {
  let remembered: string | null = null;
  try {
    remembered = localStorage.getItem(STORAGE_KEY);
  } catch {
    remembered = null;
  }
  applyTheme(remembered === "light" || remembered === "dark" ? remembered : "system");
}

export function useTheme(theme: Theme) {
  useEffect(() => {
    applyTheme(theme);
    if (theme !== "system") return;
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    const onChange = () => applyTheme("system");
    media.addEventListener("change", onChange);
    return () => media.removeEventListener("change", onChange);
  }, [theme]);
}
