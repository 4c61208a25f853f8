import { WIDGET_TYPES, widgetDefinition } from "../widgets/index.js";
import { LAYOUT_KEY } from "./layout.js";
import { isRecord } from "./widget-kit/parse.js";

/**
 * A widget as a file (DESIGN section 16, "Widget templates"): its type, size and settings, to
 * share or keep, and the bundled recipes of the widget picker. Never a secret: the settings are
 * the type's public view (what a visitor of a public dashboard may see), an integration becomes
 * the kind and name of the one it used (the importer picks one of their own), and the grid's
 * cells stay behind.
 */
export const TEMPLATE_FORMAT = "tessera.widget";
export const TEMPLATE_VERSION = 1;
export const TEMPLATE_EXTENSION = ".tessera.widget";
/** A template file is small; anything bigger is not one. */
export const TEMPLATE_MAX_BYTES = 256 * 1024;

export interface IntegrationHint {
  kind: string;
  name: string;
  /** The secrets the service needs, by name (`X-Api-Key`): what to set up, never a value. */
  secretNames: string[];
}

export interface WidgetTemplate {
  format: typeof TEMPLATE_FORMAT;
  version: typeof TEMPLATE_VERSION;
  widget: { widgetType: string; width: number; height: number; config: Record<string, unknown> };
  integration?: IntegrationHint;
}

/** Every `integrationId` in a config, removed: ids are this instance's, and the importer's differ. */
function withoutIntegrations(value: unknown, found: string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutIntegrations(item, found));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === "integrationId") {
      if (typeof item === "string") found.push(item);
      continue;
    }
    out[key] = withoutIntegrations(item, found);
  }
  return out;
}

/**
 * The file of a widget. `integrationOf` names an integration the config uses, for the hint; the
 * first one found is named (a widget uses one service; a Calendar of several names the first).
 */
export function widgetTemplate(
  widget: { widgetType: string; width: number; height: number; config: unknown },
  integrationOf: (id: string) => IntegrationHint | undefined,
): WidgetTemplate {
  const definition = widgetDefinition(widget.widgetType);
  if (!definition) throw new Error(`unknown widget type ${widget.widgetType}`);
  const shown = { ...definition.publicConfig(definition.parse(widget.config)) } as Record<string, unknown>;
  delete shown[LAYOUT_KEY];
  const ids: string[] = [];
  const config = withoutIntegrations(shown, ids) as Record<string, unknown>;
  const integration = ids.map(integrationOf).find((hint) => hint !== undefined);
  return {
    format: TEMPLATE_FORMAT,
    version: TEMPLATE_VERSION,
    widget: { widgetType: definition.type, width: widget.width, height: widget.height, config },
    ...(integration ? { integration } : {}),
  };
}

export type TemplateProblem =
  | { kind: "not_a_template" }
  | { kind: "newer_version"; version: number }
  | { kind: "unknown_type"; widgetType: string; known: readonly string[] };

/**
 * A template file read back: its widget with settings made complete by the type's parser (a file
 * from an older version, or edited by hand, still gives a usable widget), or why it is not one.
 */
export function readWidgetTemplate(
  json: unknown,
): { ok: true; template: WidgetTemplate } | { ok: false; problem: TemplateProblem } {
  if (!isRecord(json) || json.format !== TEMPLATE_FORMAT || !isRecord(json.widget))
    return { ok: false, problem: { kind: "not_a_template" } };
  if (typeof json.version !== "number" || json.version > TEMPLATE_VERSION)
    return { ok: false, problem: { kind: "newer_version", version: Number(json.version) || 0 } };
  const { widgetType, width, height, config } = json.widget;
  const definition = typeof widgetType === "string" ? widgetDefinition(widgetType) : undefined;
  if (!definition)
    return {
      ok: false,
      problem: { kind: "unknown_type", widgetType: String(widgetType), known: WIDGET_TYPES },
    };
  const size = (value: unknown, fallback: number) =>
    typeof value === "number" && Number.isFinite(value) && value > 0 && value <= 10_000 ? value : fallback;
  const parsed = { ...definition.parse(isRecord(config) ? config : {}) } as Record<string, unknown>;
  delete parsed[LAYOUT_KEY];
  const hint = isRecord(json.integration) ? json.integration : null;
  const integration =
    hint && typeof hint.kind === "string" && typeof hint.name === "string"
      ? {
          kind: hint.kind,
          name: hint.name.slice(0, 100),
          secretNames: Array.isArray(hint.secretNames)
            ? hint.secretNames.filter((name): name is string => typeof name === "string").slice(0, 10)
            : [],
        }
      : undefined;
  return {
    ok: true,
    template: {
      format: TEMPLATE_FORMAT,
      version: TEMPLATE_VERSION,
      widget: {
        widgetType: definition.type,
        width: size(width, 300),
        height: size(height, 200),
        config: parsed,
      },
      ...(integration ? { integration } : {}),
    },
  };
}
