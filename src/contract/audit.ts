import type { Static } from "@sinclair/typebox";
import { Type } from "./typebox.js";

/** The audit log as admins read it (`GET /api/admin/audit`, DESIGN section 17). */

export const AUDIT_PAGE_MAX = 200;
export const AUDIT_PAGE_DEFAULT = 50;

export const AuditEventSchema = Type.Object({
  id: Type.String({ format: "uuid" }),
  at: Type.String({ format: "date-time" }),
  actor: Type.Object({
    id: Type.Union([Type.String(), Type.Null()], {
      description: "null once the user is deleted, or for Tessera itself",
    }),
    name: Type.String({ description: "The name they had when they did it" }),
  }),
  action: Type.String({
    description: "`widget.action`, `integration.created`, `integration.changed`, `integration.deleted`…",
  }),
  target: Type.String({ description: "What it was done to: `widget:<id>`, `integration:<id>`" }),
  detail: Type.Record(Type.String(), Type.Unknown()),
});
export type AuditEvent = Static<typeof AuditEventSchema>;

export const AuditPageSchema = Type.Object(
  {
    events: Type.Array(AuditEventSchema),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: "Pass as `cursor` for older events; null at the end",
    }),
  },
  { $id: "AuditPage" },
);

export const AuditQuery = Type.Object({
  limit: Type.Optional(
    Type.String({
      pattern: "^([1-9][0-9]?|1[0-9]{2}|200)$",
      description: `1-${AUDIT_PAGE_MAX}, default ${AUDIT_PAGE_DEFAULT}`,
    }),
  ),
  cursor: Type.Optional(Type.String({ format: "uuid" })),
});
