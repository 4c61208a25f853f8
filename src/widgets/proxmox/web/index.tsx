import { lazy } from "react";
import { useTranslation } from "react-i18next";
import { t as translate } from "../../../web/i18n/i18n";
import { defineWidget } from "../../../web/widget-kit/types";
import "./preview.css";
import { proxmoxWidget as contract, type GuestKind } from "../contract";

// The view and its settings load when a Proxmox widget is on screen, not with the first page.
const ProxmoxView = lazy(() => import("./View"));
const ProxmoxSettings = lazy(() => import("./Settings"));

const GUEST_CHOICES: readonly (readonly [GuestKind, () => string])[] = [
  ["all", () => translate("widgets.proxmox.settings.guestsAll")],
  ["qemu", () => translate("widgets.proxmox.settings.guestsQemu")],
  ["lxc", () => translate("widgets.proxmox.settings.guestsLxc")],
  ["none", () => translate("widgets.proxmox.settings.guestsNone")],
];

/** The picker's sample guests: names and figures, the same in every language. */
const SAMPLE_RUNNING = "haos · 3 %";
const SAMPLE_STOPPED = "win11";

function ProxmoxPreview() {
  const { t } = useTranslation();
  return (
    <div className="preview preview-pve" aria-hidden="true">
      <span className="preview-pve-dot is-running" />
      <span>
        {SAMPLE_RUNNING} · {t("widgets.proxmox.guestStatus.running")}
      </span>
      <span className="preview-pve-dot is-stopped" />
      <span>
        {SAMPLE_STOPPED} · {t("widgets.proxmox.guestStatus.stopped")}
      </span>
    </div>
  );
}

export default defineWidget(contract, {
  group: "data",
  words: (t) => ({ name: t("widgets.proxmox.name"), description: t("widgets.proxmox.description") }),
  keywords: ["proxmox", "pve", "virtual machines", "vm", "containers", "lxc", "hypervisor", "homelab"],
  icon: "monitor",
  defaultSize: { columns: 10, rows: 30 },
  minSize: { columns: 3, rows: 8 },
  Component: ProxmoxView,
  Preview: ProxmoxPreview,
  settings: [
    ProxmoxSettings,
    {
      key: "guests",
      label: () => translate("widgets.proxmox.settings.guests"),
      options: GUEST_CHOICES,
    },
    { key: "showNodes", label: () => translate("widgets.proxmox.settings.showNodes") },
    { key: "hideStopped", label: () => translate("widgets.proxmox.settings.hideStopped") },
    {
      key: "refreshSeconds",
      label: () => translate("widgets.proxmox.settings.refresh"),
      hint: () => translate("widgets.proxmox.settings.refreshHint"),
    },
  ],
});
