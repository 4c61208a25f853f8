import type { TObject, TSchema } from "@sinclair/typebox";
import { type ComponentType, type HTMLAttributes, Suspense, useId, useState } from "react";
import { readValue } from "../../../contract/widget-kit/parse";
import type { AppSettings } from "../../lib/app-settings";
import { Field } from "../../ui/fields";
import { Skeleton } from "../../ui/States";

/** What a custom settings part gets: the draft config (applied when the panel's Save is pressed). */
export interface WidgetSettingsProps<C> {
  config: C;
  onChange(next: C): void;
  settings: AppSettings;
}

/**
 * Words shown in a field: a function is called at render time, so a field defined at module level
 * still speaks the current language (`label: () => t("widgets.weather.unit.label")`). A plain string is
 * shown as it is.
 */
export type FieldText = string | (() => string);

export const fieldText = (text: FieldText): string => (typeof text === "function" ? text() : text);

/** A config key the form renders from its schema: enums, booleans, strings and numbers. */
export interface SchemaField<C> {
  key: keyof C & string;
  label: FieldText;
  hint?: FieldText;
  /** Enums: each value's words, in the order shown. The values themselves when absent. */
  options?: readonly (readonly [value: string, label: FieldText])[];
  /** Enums: radio buttons instead of a select. */
  radio?: boolean;
  /** Optional keys: unset means "as the app settings say", and this labels that choice. */
  inherit?(settings: AppSettings): string;
  placeholder?: FieldText;
  inputMode?: HTMLAttributes<HTMLInputElement>["inputMode"];
  autoComplete?: string;
  /** Text: what a person typed as the stored value; the schema reads it when absent. */
  fromInput?(text: string): unknown;
  /** Text: said while what was typed is not a usable value (the saved one is kept meanwhile). */
  invalid?: FieldText;
}

export type SettingsPart<C> = SchemaField<C> | ComponentType<WidgetSettingsProps<C>>;

/** A generated field, not a component (a lazy() component is an object too, but carries no `label`). */
function isSchemaField<C>(part: SettingsPart<C>): part is SchemaField<C> {
  return typeof part === "object" && part !== null && "label" in part && "key" in part;
}

type FieldProps<C> = WidgetSettingsProps<C> & {
  field: SchemaField<C>;
  schema: TSchema;
  optional: boolean;
};

/** A widget type's settings panel, as its definition lays it out. */
export interface SettingsLayout<C> {
  /** The config schema the simple fields are generated from. */
  schema: TObject;
  parts: { key: string; part: SettingsPart<C> }[];
}

export function settingsLayout<C>(schema: TObject, parts: SettingsPart<C>[]): SettingsLayout<C> {
  for (const part of parts)
    if (isSchemaField(part) && !schema.properties[part.key])
      throw new Error(`The config has no key ${part.key}`);
  return {
    schema,
    parts: parts.map((part, index) => ({
      key: isSchemaField(part) ? part.key : `custom-${index}`,
      part,
    })),
  };
}

/**
 * The settings panel of a widget type: simple fields come from the config schema (their kind,
 * allowed values, length and default), custom components fill in where a field needs more.
 */
export function SettingsForm<C>({
  layout,
  ...props
}: WidgetSettingsProps<C> & { layout: SettingsLayout<C> }) {
  const required = new Set(layout.schema.required ?? []);
  return (
    <>
      {layout.parts.map(({ key, part: Part }) =>
        isSchemaField(Part) ? (
          <SchemaFieldView
            key={key}
            {...props}
            field={Part}
            schema={layout.schema.properties[Part.key] as TSchema}
            optional={!required.has(Part.key)}
          />
        ) : (
          // A custom part may be lazy (its own chunk): it shows once loaded, the fields around it at once.
          <Suspense key={key} fallback={<Skeleton height="2.5rem" width="100%" />}>
            <Part {...props} />
          </Suspense>
        ),
      )}
    </>
  );
}

function enumValues(schema: TSchema): string[] | null {
  const branches = schema.anyOf as TSchema[] | undefined;
  if (!branches?.every((b) => typeof b.const === "string")) return null;
  return branches.map((b) => b.const as string);
}

function SchemaFieldView<C>(props: FieldProps<C>) {
  const { field, schema, config, onChange, optional } = props;
  // Sets one key; undefined leaves an optional key out, which is how "not chosen" is stored.
  const set = (value: unknown) => {
    const next = { ...config } as Record<string, unknown>;
    if (value === undefined && optional) delete next[field.key];
    else next[field.key] = value;
    onChange(next as C);
  };
  const values = enumValues(schema);
  if (values) return <EnumField {...props} values={values} set={set} />;
  if (schema.type === "boolean")
    return (
      <label className="checkbox-row">
        <input type="checkbox" checked={Boolean(config[field.key])} onChange={(e) => set(e.target.checked)} />
        {fieldText(field.label)}
      </label>
    );
  if (schema.type === "string" || schema.type === "number" || schema.type === "integer")
    return <TextField {...props} set={set} />;
  throw new Error(`No generated control for ${field.key}; give it a custom component`);
}

function EnumField<C>({
  field,
  config,
  settings,
  values,
  set,
}: FieldProps<C> & { values: string[]; set(value: unknown): void }) {
  const name = useId();
  const options = field.options ?? values.map((v) => [v, v] as const);
  const current = config[field.key] as string | undefined;
  if (field.radio)
    return (
      <fieldset className="field radio-row">
        <legend className="field-label">{fieldText(field.label)}</legend>
        {options.map(([value, label]) => (
          <label key={value} className="checkbox-row">
            <input
              type="radio"
              name={name}
              value={value}
              checked={current === value}
              onChange={() => set(value)}
            />
            {fieldText(label)}
          </label>
        ))}
      </fieldset>
    );
  return (
    <Field label={fieldText(field.label)} hint={field.hint && fieldText(field.hint)}>
      {(id, describedBy) => (
        <select
          id={id}
          aria-describedby={describedBy}
          value={current ?? ""}
          onChange={(e) => set(e.target.value || undefined)}
        >
          {field.inherit && <option value="">{field.inherit(settings)}</option>}
          {options.map(([value, label]) => (
            <option key={value} value={value}>
              {fieldText(label)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/**
 * Text and numbers keep what is typed; the config changes only to a usable value (or to unset
 * or the default when the box is emptied), so a half-typed entry never replaces a good one.
 */
function TextField<C>({ field, schema, config, set }: FieldProps<C> & { set(value: unknown): void }) {
  const stored = config[field.key];
  const [text, setText] = useState(stored === undefined ? "" : String(stored));
  const numeric = schema.type !== "string";
  const read = (input: string) =>
    field.fromInput ? field.fromInput(input) : readValue(schema, numeric ? Number(input) : input);
  const invalid = text.trim() !== "" && read(text) === undefined;
  return (
    <Field
      label={fieldText(field.label)}
      hint={field.hint && fieldText(field.hint)}
      error={invalid && field.invalid ? fieldText(field.invalid) : undefined}
    >
      {(id, describedBy) => (
        <input
          id={id}
          type={numeric ? "number" : "text"}
          min={schema.minimum as number | undefined}
          max={schema.maximum as number | undefined}
          maxLength={schema.maxLength as number | undefined}
          placeholder={field.placeholder && fieldText(field.placeholder)}
          inputMode={field.inputMode}
          autoComplete={field.autoComplete}
          aria-describedby={describedBy}
          aria-invalid={invalid ? true : undefined}
          value={text}
          onChange={(e) => {
            const input = e.target.value;
            setText(input);
            if (input.trim() === "") set(schema.default);
            else {
              const value = read(input);
              if (value !== undefined) set(value);
            }
          }}
        />
      )}
    </Field>
  );
}
