import { FormatRegistry, type TSchema, Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import {
  DashboardDocument,
  DOCUMENT_FORMAT,
  DOCUMENT_VERSION,
  type DocumentWidget,
} from "../../contract/dashboard-document.js";
import type { Dashboard, Widget } from "../../contract/resources.js";
import { CONFIG_MAX_BYTES, WIDGET_TYPES, widgetDefinition } from "../../widgets/index.js";
import { badRequest, unsupportedVersion } from "../http/errors.js";

// The compiler knows no formats of its own; the document uses this one.
if (!FormatRegistry.Has("date-time"))
  FormatRegistry.Set(
    "date-time",
    (value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)),
  );
const checkDocument = TypeCompiler.Compile(DashboardDocument);
/** A config's present keys against its type's schema; absent keys take their defaults later. */
const configCheckers = new Map<string, ReturnType<typeof TypeCompiler.Compile>>();
function configChecker(type: string) {
  let checker = configCheckers.get(type);
  if (!checker) {
    const definition = widgetDefinition(type);
    checker = TypeCompiler.Compile(definition ? Type.Partial(definition.config as TSchema) : Type.Any());
    configCheckers.set(type, checker);
  }
  return checker;
}

const MAX_REPORTED = 50;
const WIDGET_TYPE_AT = /^\/widgets\/(\d+)\/widgetType$/;

/**
 * The schema's own words for a type it does not know ("Expected union value") say neither what was
 * sent nor what would do; a file from a newer Tessera, or a hand-edited one, needs both.
 */
function unknownTypeMessage(body: unknown, path: string): string | null {
  const index = WIDGET_TYPE_AT.exec(path)?.[1];
  if (index === undefined) return null;
  const type = (body as { widgets?: { widgetType?: unknown }[] }).widgets?.[Number(index)]?.widgetType;
  if (typeof type !== "string") return null;
  return `Unknown widget type ${JSON.stringify(type)} at ${path}; this Tessera knows ${WIDGET_TYPES.join(", ")}`;
}

/** The document of a dashboard as it stands: what an export, a version and a duplicate carry. */
export function documentOf(
  dashboard: Pick<Dashboard, "name"> & { look?: Dashboard["look"] },
  widgets: readonly Widget[],
  at: Date,
): DashboardDocument {
  return {
    format: DOCUMENT_FORMAT,
    version: DOCUMENT_VERSION,
    exportedAt: at.toISOString(),
    dashboard: {
      name: dashboard.name,
      ...(dashboard.look && Object.keys(dashboard.look).length > 0 ? { look: dashboard.look } : {}),
    },
    widgets: widgets.map(({ widgetType, height, width, positionX, positionY, config }) => ({
      widgetType: widgetType as DocumentWidget["widgetType"],
      height,
      width,
      positionX,
      positionY,
      config,
    })),
  };
}

/**
 * Reads an uploaded document, or refuses it with every problem and its JSON path: an unknown
 * format, a newer version (400 unsupported_version), a wrong field, a widget type this build
 * does not have, a config past its size or with a value its widget type cannot use.
 */
export function readDocument(body: unknown): DashboardDocument {
  const raw = (body ?? {}) as Record<string, unknown>;
  if (raw.format !== DOCUMENT_FORMAT)
    throw badRequest(`Not a Tessera dashboard document: format must be "${DOCUMENT_FORMAT}"`, [
      { path: "/format", message: `must be "${DOCUMENT_FORMAT}"` },
    ]);
  if (typeof raw.version === "number" && Number.isInteger(raw.version) && raw.version > DOCUMENT_VERSION)
    throw unsupportedVersion(
      `This document is version ${raw.version}; this Tessera reads up to version ${DOCUMENT_VERSION}. Update Tessera to import it.`,
    );
  const errors: { path: string; message: string }[] = [];
  for (const error of checkDocument.Errors(body)) {
    if (errors.length >= MAX_REPORTED) break;
    if (!errors.some((e) => e.path === (error.path || "/")))
      errors.push({
        path: error.path || "/",
        message: unknownTypeMessage(body, error.path) ?? error.message,
      });
  }
  if (errors.length === 0) {
    const document = body as DashboardDocument;
    document.widgets.forEach((widget, index) => {
      const at = `/widgets/${index}/config`;
      if (Buffer.byteLength(JSON.stringify(widget.config)) > CONFIG_MAX_BYTES)
        errors.push({ path: at, message: `must be at most ${CONFIG_MAX_BYTES} bytes as JSON` });
      else
        for (const error of configChecker(widget.widgetType).Errors(widget.config)) {
          if (errors.length >= MAX_REPORTED) break;
          errors.push({ path: `${at}${error.path}`, message: error.message });
        }
    });
  }
  if (errors.length > 0)
    throw badRequest(
      `The document has ${errors.length}${errors.length >= MAX_REPORTED ? " or more" : ""} problem${errors.length === 1 ? "" : "s"}; nothing was imported`,
      errors,
    );
  return body as DashboardDocument;
}
