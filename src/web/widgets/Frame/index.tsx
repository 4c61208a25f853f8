import { type FormEvent, useState } from "react";
import { normaliseUserUrl } from "../../lib/parse";
import { Icon } from "../../ui/icons";
import { Field } from "../shared/fields";
import { defineWidget, type WidgetProps, type WidgetSettingsProps } from "../types";
import { defaultFrameConfig, FRAME_SANDBOX, type FrameConfig, parseFrameConfig } from "./config";

function UrlForm({ initial, onSubmit }: { initial: string; onSubmit(url: string): void }) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const url = normaliseUserUrl(value);
    if (!url) setError("Enter an http or https address");
    else onSubmit(url);
  };
  return (
    <form className="frame-form" onSubmit={submit}>
      <p>Show a web page right on your dashboard.</p>
      <div className="frame-form-row">
        <input
          aria-label="Page URL"
          placeholder="https://status.example.com"
          inputMode="url"
          value={value}
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            setValue(e.target.value);
            setError(null);
          }}
        />
        <button type="submit" className="button primary small">
          Show
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function FrameWidget({ widget, config, update }: WidgetProps<FrameConfig>) {
  if (!config.url) return <UrlForm initial="" onSubmit={(url) => update({ url })} />;
  return (
    <div className="frame">
      <iframe
        key={config.url}
        src={config.url}
        title={`Embedded page ${config.url}`}
        sandbox={FRAME_SANDBOX}
        referrerPolicy="no-referrer"
        loading="lazy"
        data-widget={widget.id}
      />
      <a
        className="frame-open icon-button small"
        href={config.url}
        target="_blank"
        rel="noopener noreferrer"
        aria-label="Open page in a new tab"
      >
        <Icon name="external" size={14} />
      </a>
    </div>
  );
}

function FrameSettings({ config, onChange }: WidgetSettingsProps<FrameConfig>) {
  const [text, setText] = useState(config.url);
  const valid = !text.trim() || normaliseUserUrl(text);
  return (
    <Field
      label="Page URL"
      hint="http or https only. Some sites refuse to be shown inside other pages; they stay blank here."
      error={valid ? undefined : "Enter an http or https address"}
    >
      {(id, describedBy) => (
        <input
          id={id}
          aria-describedby={describedBy}
          inputMode="url"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            const url = normaliseUserUrl(e.target.value);
            onChange({ url: url ?? (e.target.value.trim() ? config.url : "") });
          }}
        />
      )}
    </Field>
  );
}

function FramePreview() {
  return (
    <div className="preview preview-frame">
      <span className="preview-bar" />
      <span className="preview-page" />
    </div>
  );
}

export const frameWidget = defineWidget<FrameConfig>({
  type: "Frame",
  name: "Frame",
  description: "Any web page (http or https) in a sandboxed frame.",
  keywords: ["iframe", "embed", "web", "page", "url"],
  icon: "frame",
  defaultSize: { width: 480, height: 360 },
  minSize: { width: 200, height: 160 },
  defaultConfig: defaultFrameConfig,
  parseConfig: parseFrameConfig,
  title: (config) => {
    if (!config.url) return undefined;
    return new URL(config.url).hostname.replace(/^www\./, "");
  },
  Component: FrameWidget,
  Settings: FrameSettings,
  Preview: FramePreview,
});
