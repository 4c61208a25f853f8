import { useId } from "react";
import { useTranslation } from "react-i18next";
import { useLocale } from "../../../web/i18n/use-locale";
import { Icon } from "../../../web/ui/icons";
import {
  CUSTOM_API_FORMATS,
  type CustomApiColumn,
  type CustomApiField,
  type CustomApiFormat,
  type CustomApiValue,
} from "../contract";
import { formatValue } from "./format";
import { tryQuery, type useJmespath } from "./jmespath";

type Jmes = ReturnType<typeof useJmespath>;

/** The query's value on the preview, shown so a person sees what the field will say. */
function asValue(value: unknown): CustomApiValue {
  if (value === undefined) return null;
  if (value === null || typeof value !== "object") return value as CustomApiValue;
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

export function FormatSelect({
  value,
  onChange,
}: {
  value: CustomApiFormat;
  onChange(next: CustomApiFormat): void;
}) {
  const { t } = useTranslation();
  const labels: Record<CustomApiFormat, string> = {
    text: t("widgets.customAPI.format.text"),
    number: t("widgets.customAPI.format.number"),
    bytes: t("widgets.customAPI.format.bytes"),
    percent: t("widgets.customAPI.format.percent"),
    duration: t("widgets.customAPI.format.duration"),
    date: t("widgets.customAPI.format.date"),
    status: t("widgets.customAPI.format.status"),
  };
  return (
    <select
      aria-label={t("widgets.customAPI.fields.format")}
      value={value}
      onChange={(e) => onChange(e.target.value as CustomApiFormat)}
    >
      {CUSTOM_API_FORMATS.map((format) => (
        <option key={format} value={format}>
          {labels[format]}
        </option>
      ))}
    </select>
  );
}

/** A query input checked as it is typed, with its value on the preview below it. */
export function QueryInput({
  label,
  query,
  onChange,
  jmes,
  json,
  format,
  unit,
}: {
  label: string;
  query: string;
  onChange(query: string): void;
  jmes: Jmes;
  json: unknown;
  format: CustomApiFormat;
  unit?: string;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const id = useId();
  const result = tryQuery(jmes, json, query);
  const problem = result && !result.ok ? result.problem : null;
  return (
    <div className={`capi-query${problem ? " has-error" : ""}`}>
      <input
        id={id}
        className="capi-query-input"
        aria-label={label}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-result`}
        spellCheck={false}
        autoComplete="off"
        value={query}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={`${id}-result`} className={problem ? "field-error" : "capi-query-value"} aria-live="polite">
        {problem
          ? t("widgets.customAPI.fields.invalid", { problem })
          : result?.ok
            ? t("widgets.customAPI.fields.current", {
                value: formatValue(asValue(result.value), format, { locale, now: Date.now(), unit }),
              })
            : ""}
      </p>
    </div>
  );
}

/** The fields: label, query, current value, format, unit; removable. */
export function FieldRows({
  fields,
  onChange,
  jmes,
  json,
}: {
  fields: CustomApiField[];
  onChange(next: CustomApiField[]): void;
  jmes: Jmes;
  json: unknown;
}) {
  const { t } = useTranslation();
  const set = (id: string, change: Partial<CustomApiField>) =>
    onChange(fields.map((f) => (f.id === id ? { ...f, ...change } : f)));
  return (
    <ol className="capi-rows">
      {fields.map((field, i) => (
        <li key={field.id} className="capi-row">
          <div className="capi-row-line">
            <input
              className="capi-row-label"
              aria-label={t("widgets.customAPI.fields.labelOf", { n: i + 1 })}
              placeholder={t("widgets.customAPI.fields.label")}
              maxLength={100}
              value={field.label}
              onChange={(e) => set(field.id, { label: e.target.value })}
            />
            <FormatSelect value={field.format} onChange={(format) => set(field.id, { format })} />
            <input
              className="capi-row-unit"
              aria-label={t("widgets.customAPI.fields.unitOf", { n: i + 1 })}
              placeholder={t("widgets.customAPI.fields.unit")}
              maxLength={20}
              value={field.unit ?? ""}
              onChange={(e) => set(field.id, { unit: e.target.value || undefined })}
            />
            <button
              type="button"
              className="icon-button small"
              aria-label={t("widgets.customAPI.fields.remove", { label: field.label || field.query })}
              onClick={() => onChange(fields.filter((f) => f.id !== field.id))}
            >
              <Icon name="trash" size={14} />
            </button>
          </div>
          <QueryInput
            label={t("widgets.customAPI.fields.queryOf", { n: i + 1 })}
            query={field.query}
            onChange={(query) => set(field.id, { query })}
            jmes={jmes}
            json={json}
            format={field.format}
            unit={field.unit}
          />
        </li>
      ))}
    </ol>
  );
}

/** The list's columns: label, query on one item, format. */
export function ColumnRows({
  columns,
  onChange,
  jmes,
  firstItem,
}: {
  columns: CustomApiColumn[];
  onChange(next: CustomApiColumn[]): void;
  jmes: Jmes;
  firstItem: unknown;
}) {
  const { t } = useTranslation();
  const set = (id: string, change: Partial<CustomApiColumn>) =>
    onChange(columns.map((c) => (c.id === id ? { ...c, ...change } : c)));
  return (
    <ol className="capi-rows">
      {columns.map((column, i) => (
        <li key={column.id} className="capi-row">
          <div className="capi-row-line">
            <input
              className="capi-row-label"
              aria-label={t("widgets.customAPI.list.columnLabelOf", { n: i + 1 })}
              placeholder={t("widgets.customAPI.fields.label")}
              maxLength={100}
              value={column.label}
              onChange={(e) => set(column.id, { label: e.target.value })}
            />
            <FormatSelect value={column.format} onChange={(format) => set(column.id, { format })} />
            <button
              type="button"
              className="icon-button small"
              aria-label={t("widgets.customAPI.list.removeColumn", { label: column.label || column.query })}
              onClick={() => onChange(columns.filter((c) => c.id !== column.id))}
            >
              <Icon name="trash" size={14} />
            </button>
          </div>
          <QueryInput
            label={t("widgets.customAPI.list.columnQueryOf", { n: i + 1 })}
            query={column.query}
            onChange={(query) => set(column.id, { query })}
            jmes={jmes}
            json={firstItem}
            format={column.format}
          />
        </li>
      ))}
    </ol>
  );
}
