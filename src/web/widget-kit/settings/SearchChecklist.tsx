import { type ReactNode, useState } from "react";
import { SearchInput } from "../SearchInput";
import "./search-checklist.css";

/** Whether every typed word is in the text (any order, any case). */
export function matchesWords(text: string, search: string): boolean {
  const lower = text.toLowerCase();
  return search
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => lower.includes(word));
}

/**
 * A long list to pick from in a settings panel (an engine's containers, a house's entities): a
 * search narrowing it down, the first `shownMax` matches ticked to pick, and how many more match.
 * Once `full`, what is not picked yet cannot be.
 */
export function SearchChecklist<T>({
  choices,
  keyOf,
  searchText,
  chosen,
  full,
  onToggle,
  shownMax,
  name,
  meta,
  words,
}: {
  choices: readonly T[];
  keyOf(choice: T): string;
  /** What the search looks in. */
  searchText(choice: T): string;
  chosen: ReadonlySet<string>;
  full: boolean;
  onToggle(choice: T, on: boolean): void;
  shownMax: number;
  name(choice: T): ReactNode;
  meta(choice: T): ReactNode;
  /** Translated: the search's label and placeholder, the words when nothing matches, and "… more". */
  words: { search: string; searchPlaceholder: string; noMatch: string; more(count: number): string };
}) {
  const [search, setSearch] = useState("");
  const found = choices.filter((choice) => matchesWords(searchText(choice), search));
  return (
    <>
      <SearchInput
        compact
        inForm
        aria-label={words.search}
        placeholder={words.searchPlaceholder}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      {found.length === 0 ? (
        <p className="muted search-checklist-none">{words.noMatch}</p>
      ) : (
        <ul className="search-checklist">
          {found.slice(0, shownMax).map((choice) => {
            const key = keyOf(choice);
            const checked = chosen.has(key);
            return (
              <li key={key}>
                <label className="checkbox-row">
                  <input
                    type="checkbox"
                    checked={checked}
                    disabled={!checked && full}
                    onChange={(e) => onToggle(choice, e.target.checked)}
                  />
                  <span className="search-checklist-text">
                    <span className="search-checklist-name">{name(choice)}</span>
                    <span className="search-checklist-meta">{meta(choice)}</span>
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
      {found.length > shownMax && <p className="field-hint">{words.more(found.length - shownMax)}</p>}
    </>
  );
}
