import { useEffect } from "react";

// Apart from CommandPalette.tsx, which loads on the palette's first open: these listen from the start.

/** Is the key press meant for a text field (where "/" and "?" are just characters)? */
export function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element?.closest?.("input, textarea, select, [contenteditable='true']");
}

/**
 * Ctrl+K (⌘K on a Mac) or "/" opens the palette, "?" the list of shortcuts, from anywhere in
 * the signed-in app.
 */
export function usePaletteShortcuts(openPalette: () => void, openShortcuts: () => void) {
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey) return;
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") {
        event.preventDefault();
        openPalette();
        return;
      }
      if (event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      if (document.querySelector("dialog[open]")) return;
      if (event.key === "/") {
        event.preventDefault();
        openPalette();
      } else if (event.key === "?") {
        event.preventDefault();
        openShortcuts();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [openPalette, openShortcuts]);
}
