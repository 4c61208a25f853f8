import { useState } from "react";
import { Field } from "../shared/fields";
import type { WidgetSettingsProps } from "../types";
import { type HeatmapConfig, LOGIN } from "./config";

export function HeatmapSettings({ config, onChange }: WidgetSettingsProps<HeatmapConfig>) {
  const [text, setText] = useState(config.login ?? "");
  const value = text.trim().replace(/^@/, "");
  const invalid = value !== "" && !LOGIN.test(value);
  return (
    <Field
      label="GitHub login"
      hint="Leave empty for the account you connected."
      error={invalid ? "Not a GitHub login: letters, digits and single dashes, up to 39" : undefined}
    >
      {(id, describedBy) => (
        <input
          id={id}
          placeholder="octocat"
          value={text}
          autoComplete="off"
          aria-describedby={describedBy}
          aria-invalid={invalid ? true : undefined}
          onChange={(e) => {
            setText(e.target.value);
            const next = e.target.value.trim().replace(/^@/, "");
            if (next === "") onChange({});
            else if (LOGIN.test(next)) onChange({ login: next });
          }}
        />
      )}
    </Field>
  );
}
