import { t } from "../../../web/i18n/i18n";
import { ApiError, describeError } from "../../../web/lib/api";
import { appLocale, formatNumber } from "../../../web/widget-kit/data/format";
import type { GuestStatus, ProxmoxGuest, ProxmoxNode } from "../contract";
import { isNodeName } from "../contract";

/** "6 %", "<1 %": a share of the CPUs, as the reader writes percentages. */
export function cpuShare(share: number | null, locale = appLocale()): string | null {
  if (share === null) return null;
  if (share > 0 && share < 0.01) return `<${formatNumber(0.01, locale, { style: "percent" })}`;
  return formatNumber(share, locale, { style: "percent", maximumFractionDigits: 0 });
}

const UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"] as const;

/** Bytes in binary units, as Proxmox's own interface shows them: "2.9 GiB", "512 MiB". */
export function binaryBytes(bytes: number, locale = appLocale()): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = value >= 100 || unit === 0 ? 0 : 1;
  return `${formatNumber(value, locale, { maximumFractionDigits: digits })} ${UNITS[unit]}`;
}

/** "2.9 of 4 GiB" when both are known; the total alone ("4 GiB") when only it is. */
export function usedOf(used: number | null, total: number | null, locale = appLocale()): string | null {
  if (total === null || total === 0) return used === null ? null : binaryBytes(used, locale);
  if (used === null) return binaryBytes(total, locale);
  return t("widgets.proxmox.usedOf", { used: binaryBytes(used, locale), total: binaryBytes(total, locale) });
}

/** The share of a total, 0 to 1, for a bar; null without both. */
export const shareOf = (used: number | null, total: number | null) =>
  used === null || total === null || total <= 0 ? null : Math.min(1, Math.max(0, used / total));

/** "14 d 2 h", "3 h 5 min", "42 min": how long it has been up, in the reader's units. */
export function uptime(seconds: number | null, locale = appLocale()): string | null {
  if (seconds === null) return null;
  const unit = (value: number, name: "day" | "hour" | "minute") =>
    formatNumber(value, locale, { style: "unit", unit: name, unitDisplay: "narrow" });
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return hours > 0 ? `${unit(days, "day")} ${unit(hours, "hour")}` : unit(days, "day");
  if (hours > 0)
    return minutes > 0 ? `${unit(hours, "hour")} ${unit(minutes, "minute")}` : unit(hours, "hour");
  return unit(minutes, "minute");
}

/** The word next to a guest's dot, in the reader's language. */
export function guestStatusWord(status: GuestStatus): string {
  switch (status) {
    case "running":
      return t("widgets.proxmox.guestStatus.running");
    case "stopped":
      return t("widgets.proxmox.guestStatus.stopped");
    case "paused":
      return t("widgets.proxmox.guestStatus.paused");
    case "unknown":
      return t("widgets.proxmox.guestStatus.unknown");
  }
}

export function nodeStatusWord(status: ProxmoxNode["status"]): string {
  switch (status) {
    case "online":
      return t("widgets.proxmox.nodeStatus.online");
    case "offline":
      return t("widgets.proxmox.nodeStatus.offline");
    case "unknown":
      return t("widgets.proxmox.nodeStatus.unknown");
  }
}

export const guestKindWord = (guest: Pick<ProxmoxGuest, "type">) =>
  guest.type === "qemu" ? t("widgets.proxmox.kind.qemu") : t("widgets.proxmox.kind.lxc");

/** A guest's name; one the cluster has no figures for is named by its id. */
export const guestName = (guest: Pick<ProxmoxGuest, "name" | "vmid">) =>
  guest.name ?? t("widgets.proxmox.unnamed", { vmid: guest.vmid });

/** "pve1, pve2" or "pve1 pve2" as typed: the node names in it, and whether any part was no name. */
export function nodeNames(text: string): { names: string[]; invalid: boolean } {
  const parts = text
    .split(/[\s,;]+/)
    .map((part) => part.trim())
    .filter(Boolean);
  const names = [...new Set(parts.filter(isNodeName))];
  return { names, invalid: names.length !== new Set(parts).size };
}

/**
 * Why the widget has nothing to show, in the reader's language from the problem's code, with the
 * server's detail (which names the refused token, the missing permission or the TLS trouble) as
 * fine print.
 */
export function describeProxmoxError(error: unknown): { message: string; detail: string | null } {
  if (!(error instanceof ApiError)) return { message: describeError(error), detail: null };
  const detail = error.problem?.detail ?? null;
  switch (error.code) {
    case "not_found":
      return { message: t("widgets.proxmox.errors.notFound"), detail };
    case "address_not_allowed":
      return { message: t("widgets.proxmox.errors.private"), detail };
    case "upstream_timeout":
      return { message: t("widgets.proxmox.errors.slow"), detail };
    case "upstream_failed":
    case "validation_failed":
      return { message: t("widgets.proxmox.errors.failed"), detail };
    default:
      return { message: describeError(error), detail: null };
  }
}
