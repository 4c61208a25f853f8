import { useTranslation } from "react-i18next";
import { normaliseUserUrl } from "../../lib/parse";

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
