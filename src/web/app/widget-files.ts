import type { TFunction } from "i18next";
import type { Widget } from "../../contract/resources";
import {
  type IntegrationHint,
  readWidgetTemplate,
  TEMPLATE_EXTENSION,
  TEMPLATE_MAX_BYTES,
  type TemplateProblem,
  type WidgetTemplate,
  widgetTemplate,
} from "../../contract/widget-template";
import { request } from "../lib/api";

interface SavedIntegration {
  id: string;
  kind: string;
  name: string;
  secrets: string[];
}

/** The file's name: the widget's title, kept to what every file system takes. */
export function widgetFileName(title: string): string {
  const base = title
    .normalize("NFKD")
    .replace(/[^\w\s-]/g, "")
    .trim()
    .replace(/\s+/g, "-")
    .toLowerCase();
  return `${base || "widget"}${TEMPLATE_EXTENSION}`;
}

/**
 * Saves the widget as a `.tessera.widget` file. An integration it uses is named by kind, name and
 * secret names (read from the caller's list; never its secrets, which the browser never has).
 */
export async function downloadWidgetFile(widget: Widget, title: string): Promise<void> {
  let saved: SavedIntegration[] = [];
  if (JSON.stringify(widget.config).includes('"integrationId"'))
    saved = await request<SavedIntegration[]>("GET", "/api/integrations").catch(() => []);
  const hintOf = (id: string): IntegrationHint | undefined => {
    const found = saved.find((integration) => integration.id === id);
    return found && { kind: found.kind, name: found.name, secretNames: found.secrets };
  };
  const file = widgetTemplate(widget, hintOf);
  const blob = new Blob([`${JSON.stringify(file, null, 2)}\n`], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = widgetFileName(title);
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the data to the download; the address is not needed after this turn.
  setTimeout(() => URL.revokeObjectURL(link.href), 0);
}

export type WidgetFileResult =
  | { ok: true; template: WidgetTemplate }
  | { ok: false; problem: TemplateProblem | { kind: "too_large" } | { kind: "not_json" } };

/** A chosen file read as a widget template, or why it is not one. */
export async function readWidgetFile(file: File): Promise<WidgetFileResult> {
  if (file.size > TEMPLATE_MAX_BYTES) return { ok: false, problem: { kind: "too_large" } };
  let json: unknown;
  try {
    json = JSON.parse(await file.text());
  } catch {
    return { ok: false, problem: { kind: "not_json" } };
  }
  return readWidgetTemplate(json);
}

/** Why a chosen file was not imported, in the reader's words. */
export function widgetFileProblem(
  t: TFunction,
  problem: Extract<WidgetFileResult, { ok: false }>["problem"],
): string {
  switch (problem.kind) {
    case "too_large":
      return t("widgetFile.problems.too_large");
    case "not_json":
      return t("widgetFile.problems.not_json");
    case "not_a_template":
      return t("widgetFile.problems.not_a_template");
    case "newer_version":
      return t("widgetFile.problems.newer_version", { version: problem.version });
    case "unknown_type":
      return t("widgetFile.problems.unknown_type", { type: problem.widgetType });
  }
}
