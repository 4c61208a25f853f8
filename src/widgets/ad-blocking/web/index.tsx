import { lazy } from "react";
import { useTranslation } from "react-i18next";
import { t as translate } from "../../../web/i18n/i18n";
import { defineWidget } from "../../../web/widget-kit/types";
import { adBlockingWidget as contract } from "../contract";

/** The picker's sample share, the same in every language. */
const SAMPLE_SHARE = "14.3%";

function AdBlockingPreview() {
  const { t } = useTranslation();
  return (
    <div
      className="preview"
      aria-hidden="true"
      style={{ display: "grid", gridTemplateColumns: "1fr auto", alignItems: "center", gap: "6px 10px" }}
    >
      <span>{t("widgets.adBlocking.preview.blocked")}</span>
      <strong>{SAMPLE_SHARE}</strong>
      <span
        style={{
          gridColumn: "1 / -1",
          height: 6,
          borderRadius: 999,
          background: "linear-gradient(90deg, var(--accent) 14.3%, var(--border) 14.3%)",
        }}
      />
    </div>
  );
}

export default defineWidget(contract, {
  group: "data",
  words: (t) => ({
    name: t("widgets.adBlocking.name"),
    description: t("widgets.adBlocking.description"),
  }),
  keywords: ["pi-hole", "pihole", "adguard", "dns", "ad blocker", "blocking", "homelab"],
  icon: "shield",
  defaultSize: { columns: 6, rows: 15 },
  minSize: { columns: 3, rows: 9 },
  Component: lazy(() => import("./View")),
  settings: [
    lazy(() => import("./Settings")),
    {
      key: "refreshSeconds",
      label: () => translate("widgets.adBlocking.refresh.label"),
      hint: () => translate("widgets.adBlocking.refresh.hint"),
    },
  ],
  Preview: AdBlockingPreview,
});
