import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { type KeyboardEvent, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { type BundledIcon, iconSlug } from "../../../contract/icons";
import { dataApi } from "../../../web/lib/data-api";
import { useDebounced } from "../../../web/lib/use-debounced";
import { Icon } from "../../../web/ui/icons";
import { SearchInput } from "../../../web/widget-kit/SearchInput";
import { IconGlyph } from "./BundledIcon";

/** "Site icon" (the favicon) is the picker's first choice: no bundled icon. */
type Choice = { id: null; title: string } | BundledIcon;

/**
 * Searching the bundled icon set for one bookmark, loaded (as its own chunk) only when a picker
 * opens: a combobox over a listbox, as the command palette is. Arrow keys move, Enter picks,
 * Escape closes without picking. The icon the bookmark's host or title names comes first.
 */
export default function IconPicker({
  value,
  hint,
  name,
  onPick,
  onClose,
}: {
  /** The chosen icon's id, or undefined for the site icon. */
  value: string | undefined;
  /** "<host> <title>" of the bookmark, for the suggestion. */
  hint: string;
  /** The bookmark's name, for labels. */
  name: string;
  onPick(icon: string | undefined): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const listId = useId();
  const queryClient = useQueryClient();
  const q = useDebounced(query.trim(), 150);
  const search = useQuery({
    queryKey: ["icons", "search", q, hint],
    queryFn: () => dataApi.icons.search(q, hint),
    staleTime: Number.POSITIVE_INFINITY,
    placeholderData: keepPreviousData,
  });
  // Typed faster than the search answers: the list shown is for an earlier query.
  const stale = q !== query.trim() || search.isPlaceholderData || search.isPending;
  const [enterWaiting, setEnterWaiting] = useState(false);
  const icons = search.data?.icons ?? [];
  const choices: Choice[] = [{ id: null, title: t("widgets.bookmark.icon.siteIcon") }, ...icons];
  // Once something is typed (or suggested), Enter takes the best match rather than "Site icon".
  const current = Math.min(active, choices.length - 1);
  const optionId = (index: number) => `${listId}-${index}`;
  const pick = (choice: Choice) => {
    // The search answered the icon already: the preview and the widget need not ask again.
    const slug = choice.id === null ? null : iconSlug(choice.id);
    if (slug) queryClient.setQueryData(["icons", "bundled", slug], choice);
    onPick(choice.id ?? undefined);
  };

  // Enter pressed while stale picks once the answer for what was typed is in, not a stale result.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the answer catches up.
  useEffect(() => {
    if (!enterWaiting || stale) return;
    setEnterWaiting(false);
    const choice = choices[current];
    if (choice) pick(choice);
  }, [enterWaiting, stale]);

  const move = (index: number) => {
    setActive(index);
    document.getElementById(optionId(index))?.scrollIntoView({ block: "nearest" });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = choices.length - 1;
    if (event.key === "ArrowDown") move(current >= last ? 0 : current + 1);
    else if (event.key === "ArrowUp") move(current <= 0 ? last : current - 1);
    else if (event.key === "Home" && event.ctrlKey) move(0);
    else if (event.key === "End" && event.ctrlKey) move(last);
    else if (event.key === "Enter") {
      // In a settings form Enter would save and close the panel; here it picks.
      const choice = choices[current];
      if (stale) setEnterWaiting(true);
      else if (choice) pick(choice);
    } else if (event.key === "Escape") {
      // Closes the picker, not the settings dialog around it.
      event.stopPropagation();
      onClose();
    } else return;
    event.preventDefault();
  };

  return (
    <div className="icon-picker">
      <SearchInput
        compact
        role="combobox"
        aria-label={t("widgets.bookmark.icon.search", { name })}
        aria-expanded="true"
        aria-controls={listId}
        aria-activedescendant={optionId(current)}
        aria-autocomplete="list"
        placeholder={t("widgets.bookmark.icon.searchPlaceholder")}
        value={query}
        // The picker opens on request; typing goes straight in.
        autoFocus
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(e.target.value.trim() ? 1 : 0);
        }}
        onKeyDown={onKeyDown}
      />
      <div className="visually-hidden" aria-live="polite">
        {search.isFetching ? "" : t("widgets.bookmark.icon.matches", { count: icons.length })}
      </div>
      <div
        className="icon-picker-list"
        id={listId}
        role="listbox"
        aria-label={t("widgets.bookmark.icon.list", { name })}
      >
        {choices.map((choice, index) => {
          const chosen = (choice.id ?? undefined) === value;
          return (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox handles the keys for its options.
            <div
              key={choice.id ?? "site"}
              id={optionId(index)}
              role="option"
              tabIndex={-1}
              aria-selected={index === current}
              data-icon={choice.id ?? "site"}
              className={`icon-picker-option${index === current ? " is-active" : ""}`}
              onMouseMove={() => setActive(index)}
              // The search box keeps the focus (and with it the keyboard).
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(choice)}
            >
              {choice.id === null ? (
                <span className="bookmark-glyph icon-picker-site" aria-hidden="true">
                  <Icon name="globe" size={14} />
                </span>
              ) : (
                <IconGlyph icon={choice} />
              )}
              <span className="icon-picker-title">{choice.title}</span>
              {choice.id !== null && choice.id === search.data?.suggested && (
                <span className="icon-picker-tag">{t("widgets.bookmark.icon.suggested")}</span>
              )}
              {chosen && (
                <>
                  <Icon name="check" size={14} />
                  <span className="visually-hidden">{t("widgets.bookmark.icon.current")}</span>
                </>
              )}
            </div>
          );
        })}
      </div>
      {q && !search.isFetching && icons.length === 0 && (
        <p className="muted icon-picker-none">{t("widgets.bookmark.icon.noMatch", { query: q })}</p>
      )}
    </div>
  );
}
