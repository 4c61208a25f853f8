import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { normaliseUserUrl } from "../../lib/parse";

/**
 * An address typed into a small form (the first feed, a frame's page, a bookmark): what is typed,
 * whether the last submit was refused, and the submit handler, which hands on the usable address.
 * Typing again clears the refusal.
 */
export function useAddressDraft(initial: string, onAddress: (url: string) => void) {
  const [text, setText] = useState(initial);
  const [invalid, setInvalid] = useState(false);
  return {
    text,
    invalid,
    change(value: string) {
      setText(value);
      setInvalid(false);
    },
    submit(event: FormEvent) {
      event.preventDefault();
      const url = normaliseUserUrl(text);
      if (url) onAddress(url);
      else setInvalid(true);
    },
  };
}

/** A row of a settings list of addresses: `url` is what was typed, `saved` the address kept meanwhile. */
export type AddressRow<T extends { url: string }> = T & { saved: string };

/**
 * The rows of a settings list of addresses (feeds, bookmarks, checks) and `publish`, which keeps
 * what was typed and saves every row that has an address: the typed one once it is usable, the
 * saved one until then. `item` makes the saved entry from a row and that address.
 */
export function useAddressRows<T extends { url: string }, I>(
  items: readonly T[],
  item: (row: AddressRow<T>, url: string) => I,
  save: (items: I[]) => void,
): [AddressRow<T>[], (next: AddressRow<T>[]) => void] {
  const [rows, setRows] = useState<AddressRow<T>[]>(() => items.map((x) => ({ ...x, saved: x.url })));
  const publish = (next: AddressRow<T>[]) => {
    setRows(next);
    save(
      next.flatMap((row) => {
        const url = normaliseUserUrl(row.url) ?? row.saved;
        return url ? [item(row, url)] : [];
      }),
    );
  };
  return [rows, publish];
}

/**
 * A web address typed into a settings list row. What is typed stays in the field; the saved
 * address changes only once the text is usable, and until then the row says why.
 */
export function AddressInput({
  label,
  placeholder,
  value,
  saved,
  onChange,
}: {
  label: string;
  placeholder: string;
  value: string;
  /** The address kept while what is typed is not usable ("" when there is none yet). */
  saved: string;
  onChange(text: string): void;
}) {
  const { t } = useTranslation();
  const invalid = value.trim() !== "" && !normaliseUserUrl(value);
  return (
    <>
      <input
        aria-label={label}
        placeholder={placeholder}
        inputMode="url"
        value={value}
        aria-invalid={invalid ? true : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {invalid && (
        <p className="field-error">
          {saved ? t("widgets.settings.address.invalidKept") : t("widgets.settings.address.invalid")}
        </p>
      )}
    </>
  );
}
