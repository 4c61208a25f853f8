import { useState } from "react";
import { useTranslation } from "react-i18next";
import { hostname } from "../../../contract/widget-kit/fields";
import { t } from "../../../web/i18n/i18n";
import { normaliseUserUrl } from "../../../web/lib/parse";
import { Icon } from "../../../web/ui/icons";
import { useAddressDraft } from "../../../web/widget-kit/settings/AddressInput";
import { defineWidget, type WidgetProps } from "../../../web/widget-kit/types";
import { WidgetEmpty } from "../../../web/widget-kit/WidgetEmpty";
import { frameWidget as contract, type FrameConfig } from "../contract";
import { frameSandbox, originLabel } from "./logic";

function UrlForm({ initial, onSubmit }: { initial: string; onSubmit(url: string): void }) {
  const { t } = useTranslation();
  const draft = useAddressDraft(initial, onSubmit);
  return (
    <form className="frame-form" onSubmit={draft.submit}>
      <p>{t("widgets.frame.intro")}</p>
      <div className="frame-form-row">
        <input
          aria-label={t("widgets.frame.url")}
          placeholder="https://status.example.com"
          inputMode="url"
          value={draft.text}
          aria-invalid={draft.invalid ? true : undefined}
          onChange={(e) => draft.change(e.target.value)}
        />
        <button type="submit" className="button primary small">
          {t("widgets.frame.show")}
        </button>
      </div>
      {draft.invalid && (
        <p className="field-error" role="alert">
          {t("widgets.frame.invalid")}
        </p>
      )}
    </form>
  );
}

function FrameWidget({ widget, config, update, readOnly }: WidgetProps<FrameConfig>) {
  const { t } = useTranslation();
  // A visitor decides whether a page from another site loads: nothing is fetched until asked.
  const [loaded, setLoaded] = useState(!readOnly);
  if (!config.url) {
    if (readOnly) return <WidgetEmpty text={t("widgets.frame.none")} />;
    return <UrlForm initial="" onSubmit={(url) => update((c) => ({ ...c, url }))} />;
  }
  const origin = originLabel(config.url);
  if (!loaded) {
    return (
      <div className="frame-gate">
        <p className="frame-origin">
          <Icon name="globe" size={14} /> {origin}
        </p>
        <p className="muted">{t("widgets.frame.gate")}</p>
        <button type="button" className="button small" onClick={() => setLoaded(true)}>
          {t("widgets.frame.load")}
        </button>
      </div>
    );
  }
  return (
    <div className={`frame${readOnly ? " has-origin" : ""}`}>
      {readOnly && (
        <p className="frame-origin-bar" title={config.url}>
          <Icon name="globe" size={12} /> {origin}
        </p>
      )}
      <iframe
        key={config.url}
        src={config.url}
        title={t("widgets.frame.embedded", { url: config.url })}
        sandbox={frameSandbox(config.url, window.location.origin)}
        referrerPolicy="no-referrer"
        loading="lazy"
        data-widget={widget.id}
      />
      <a
        className="frame-open icon-button small"
        href={config.url}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={t("widgets.frame.openInNewTab")}
      >
        <Icon name="external" size={14} />
      </a>
    </div>
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

export default defineWidget(contract, {
  group: "content",
  words: (t) => ({ name: t("widgets.frame.name"), description: t("widgets.frame.description") }),
  keywords: ["iframe", "embed", "web", "page", "url"],
  icon: "frame",
  defaultSize: { columns: 8, rows: 16 },
  minSize: { columns: 3, rows: 8 },
  // The title the user gave, else the page's host.
  title: (config) => config.title || (config.url ? hostname(config.url) : undefined),
  Component: FrameWidget,
  settings: [
    // Getters: the form reads its words when it renders, in the language of that moment.
    {
      key: "url",
      get label() {
        return t("widgets.frame.url");
      },
      get hint() {
        return t("widgets.frame.urlHint");
      },
      inputMode: "url",
      fromInput: normaliseUserUrl,
      get invalid() {
        return t("widgets.frame.invalid");
      },
    },
    {
      key: "title",
      get label() {
        return t("widgets.frame.titleField.label");
      },
      get hint() {
        return t("widgets.frame.titleField.hint");
      },
      get placeholder() {
        return t("widgets.frame.titleField.placeholder");
      },
    },
  ],
  Preview: FramePreview,
});
