import type { Static } from "@sinclair/typebox";
import { CONFIG_MAX_BYTES, GEOMETRY_MAX, WIDGET_TYPES } from "../widgets/index.js";
import { LOOK_ACCENT_PATTERN, LOOK_BACKGROUND_MAX, LOOK_BACKGROUND_PATTERN } from "./look.js";
import { Type } from "./typebox.js";

/** The export format's name and the newest version this build writes and reads. */
export const DOCUMENT_FORMAT = "tessera.dashboard";
export const DOCUMENT_VERSION = 1;
/** More widgets than this in one document is not a dashboard anyone built by hand. */
export const DOCUMENT_MAX_WIDGETS = 500;
/** The import route's body limit (the rest of the API keeps 1 MiB). */
export const DOCUMENT_MAX_BYTES = 5 * 1024 * 1024;

export const DocumentWidget = Type.Object(
  {
    widgetType: Type.Union(
      WIDGET_TYPES.map((t) => Type.Literal(t)),
      { description: "One of the widget types, spelled exactly" },
    ),
    height: Type.Number({ exclusiveMinimum: 0, maximum: GEOMETRY_MAX }),
    width: Type.Number({ exclusiveMinimum: 0, maximum: GEOMETRY_MAX }),
    positionX: Type.Number({ minimum: 0, maximum: GEOMETRY_MAX }),
    positionY: Type.Number({ minimum: 0, maximum: GEOMETRY_MAX }),
    config: Type.Object(
      {},
      { additionalProperties: true, description: `At most ${CONFIG_MAX_BYTES} bytes as JSON` },
    ),
  },
  { additionalProperties: false },
);
export type DocumentWidget = Static<typeof DocumentWidget>;

/** The dashboard's personal look; left out of a document when the dashboard has none. */
export const DocumentLook = Type.Object(
  {
    accent: Type.Optional(Type.String({ pattern: LOOK_ACCENT_PATTERN })),
    background: Type.Optional(
      Type.String({ pattern: LOOK_BACKGROUND_PATTERN, maxLength: LOOK_BACKGROUND_MAX }),
    ),
  },
  { additionalProperties: false },
);

/**
 * A dashboard as a file (DESIGN section 10): what it is called and its widgets, nothing that
 * identifies its owner or their connected accounts. Exports, imports and versions all use it.
 */
export const DashboardDocument = Type.Object(
  {
    format: Type.Literal(DOCUMENT_FORMAT),
    version: Type.Integer({ minimum: 1, description: "The format version; this build reads 1" }),
    exportedAt: Type.String({ format: "date-time" }),
    dashboard: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 100, pattern: "\\S" }),
        look: Type.Optional(DocumentLook),
      },
      { additionalProperties: false },
    ),
    widgets: Type.Array(DocumentWidget, { maxItems: DOCUMENT_MAX_WIDGETS }),
  },
  { $id: "https://tessera.dev/schemas/dashboard-document-v1.json", title: "Tessera dashboard document" },
);
export type DashboardDocument = Static<typeof DashboardDocument>;
