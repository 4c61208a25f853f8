import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { hostname } from "../../../contract/widget-kit/fields";
import { t } from "../../../web/i18n/i18n";
import { request } from "../../../web/lib/api";
import { normaliseUserUrl } from "../../../web/lib/parse";
import { Icon } from "../../../web/ui/icons";
import { Skeleton } from "../../../web/ui/States";
import { useDataSource } from "../../../web/widget-kit/data/source";
import { useAddressDraft } from "../../../web/widget-kit/settings/AddressInput";
import { defineWidget, type WidgetProps } from "../../../web/widget-kit/types";
import { WidgetEmpty } from "../../../web/widget-kit/WidgetEmpty";
import { frameWidget as contract, type FrameCheck, type FrameConfig } from "../contract";
import { blockedAsInsecure, frameSandbox, originLabel } from "./logic";

/** How long the frame waits for the server's word before showing the page anyway. */
const CHECK_WAIT_MS = 2500;

/**
 * What the server found out about the page (contract.ts says why the browser cannot tell):
 * "checking" until it answers or CHECK_WAIT_MS pass, then its verdict, "unknown" when it has
 * none. The server judges the stored address, so an answer for an address not saved yet is
 * asked again rather than believed.
 */
function useFraming(
  widgetId: string,
  url: string,
  enabled: boolean,
): Pick<FrameCheck, "reason"> & { framing: FrameCheck["framing"] | "checking" } {
  const source = useDataSource();
  const path =
    source.kind === "public"
      ? `/api/public/dashboards/${encodeURIComponent(source.dashboardId)}/widgets/${encodeURIComponent(widgetId)}/framing`
      : `/api/widgets/framing?id=${encodeURIComponent(widgetId)}`;
  const query = useQuery({
    queryKey: ["frame-framing", path, url],
    queryFn: async () => {
      const answer = await request<FrameCheck>("GET", path);
      if (answer.url !== url) throw new Error("The page's address is not saved yet");
      return answer;
    },
    enabled,
    staleTime: 5 * 60_000,
    retry: 4,
    retryDelay: 800,
  });
  // The address whose wait is over: another address waits anew.
  const [waitedFor, setWaitedFor] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    const timer = setTimeout(() => setWaitedFor(url), CHECK_WAIT_MS);
    return () => clearTimeout(timer);
  }, [enabled, url]);
  if (query.data) return query.data;
  return { framing: query.isError || waitedFor === url ? "unknown" : "checking" };
}

/** Tessera's own words where the browser would show an empty frame or its sad-page icon. */
function Blocked({
  url,
  why,
  onChange,
}: {
  url: string;
  why: "x-frame-options" | "frame-ancestors" | "insecure";
  onChange?: () => void;
}) {
  const { t } = useTranslation();
  const host = hostname(url);
  const text = {
    "x-frame-options": t("widgets.frame.blocked.xFrameOptions"),
    "frame-ancestors": t("widgets.frame.blocked.frameAncestors"),
    insecure: t("widgets.frame.blocked.insecure"),
  };
  return (
    <div className="frame-blocked">
      <Icon name="frame" size={22} />
      <strong>{t("widgets.frame.blocked.title", { host })}</strong>
      <p>{text[why]}</p>
      <div className="widget-empty-actions">
        <a className="button small" href={url} target="_blank" rel="noopener noreferrer">
          <Icon name="external" size={14} /> {t("widgets.frame.blocked.open", { host })}
        </a>
        {onChange && (
          <button type="button" className="button ghost small" onClick={onChange}>
            {t("widgets.frame.blocked.change")}
          </button>
        )}
      </div>
    </div>
  );
}

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

function FrameWidget({ widget, config, update, openSettings, readOnly }: WidgetProps<FrameConfig>) {
  const { t } = useTranslation();
  // A visitor decides whether a page from another site loads: nothing is fetched until asked.
  const [loaded, setLoaded] = useState(!readOnly);
  const insecure = blockedAsInsecure(config.url, window.location.protocol);
  const { framing, reason } = useFraming(widget.id, config.url, loaded && Boolean(config.url) && !insecure);
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
  const change = readOnly ? undefined : openSettings;
  if (insecure) return <Blocked url={config.url} why="insecure" onChange={change} />;
  if (framing === "refused")
    return <Blocked url={config.url} why={reason ?? "x-frame-options"} onChange={change} />;
  if (framing === "checking")
    return (
      <div className="frame-checking" role="status" aria-label={t("widgets.frame.checking")}>
        <Skeleton height="100%" width="100%" />
      </div>
    );
  return (
    <div className={`frame${readOnly || framing === "unreachable" ? " has-origin" : ""}`}>
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
      {framing === "unreachable" && (
        <p className="frame-note">
          <Icon name="alert" size={12} /> {t("widgets.frame.unreachable", { host: hostname(config.url) })}
        </p>
      )}
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
