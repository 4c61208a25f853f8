import type { Static } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { INTEGRATION_NAME_MAX, INTEGRATION_URL_MAX } from "../../contract/integrations.js";
import { Type } from "../../contract/typebox.js";

/**
 * The files of `PROVISIONING_DIR` (DESIGN section 17), as an operator writes them: a dashboard per
 * file under `dashboards/` (the dashboard document of section 10 plus who has it), and lists of
 * integrations under `integrations/`. Everything is keyed by `key`, so applying twice changes
 * nothing and renaming a file keeps its dashboard.
 */

export const PROVISION_KEY_PATTERN = "^[a-z0-9][a-z0-9._-]{0,99}$";
const Key = Type.String({
  pattern: PROVISION_KEY_PATTERN,
  description: "Stable identity: lower case letters, digits, '.', '_' and '-'",
});
const Email = Type.String({ minLength: 3, maxLength: 320, pattern: "^[^@\\s]+@[^@\\s]+$" });
const Role = Type.Union([Type.Literal("viewer"), Type.Literal("editor")]);

export const ProvisionedMember = Type.Union([
  Type.Object({ email: Email, role: Role }, { additionalProperties: false }),
  Type.Object(
    { group: Type.String({ minLength: 1, maxLength: 100 }), role: Role },
    { additionalProperties: false },
  ),
  Type.Object({ everyone: Type.Literal(true), role: Role }, { additionalProperties: false }),
]);
export type ProvisionedMember = Static<typeof ProvisionedMember>;

/** What a dashboard file adds to the dashboard document; the document itself is read by readDocument. */
export const DashboardFileHead = Type.Object({
  key: Key,
  owner: Type.Optional(Email),
  editable: Type.Optional(Type.Boolean()),
  members: Type.Optional(Type.Array(ProvisionedMember, { maxItems: 200 })),
});
export type DashboardFileHead = Static<typeof DashboardFileHead>;
export const DASHBOARD_HEAD_KEYS = ["key", "owner", "editable", "members"] as const;

export const ProvisionedIntegration = Type.Object(
  {
    key: Key,
    kind: Type.String({ minLength: 1, maxLength: 40 }),
    name: Type.String({ minLength: 1, maxLength: INTEGRATION_NAME_MAX }),
    url: Type.String({ minLength: 1, maxLength: INTEGRATION_URL_MAX }),
    /** An email: that person's own integration; absent: the instance's (every user may use it). */
    owner: Type.Optional(Email),
    allowPrivate: Type.Optional(Type.Boolean()),
    skipTlsVerify: Type.Optional(Type.Boolean()),
    allowActions: Type.Optional(Type.Boolean()),
    caCertificate: Type.Optional(Type.String({ maxLength: 16 * 1024 })),
    /** Values may name environment variables, `${HA_TOKEN}`: secrets stay out of the files. */
    secrets: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: 4096 }))),
  },
  { additionalProperties: false },
);
export type ProvisionedIntegration = Static<typeof ProvisionedIntegration>;

export const IntegrationsFile = Type.Object(
  { integrations: Type.Array(ProvisionedIntegration, { maxItems: 500 }) },
  { additionalProperties: false },
);

export const checkDashboardHead = TypeCompiler.Compile(DashboardFileHead);
export const checkIntegrationsFile = TypeCompiler.Compile(IntegrationsFile);

/** A widget config names a provisioned integration as `integration:<key>` in `integrationId(s)`. */
export const INTEGRATION_REFERENCE = /^integration:([a-z0-9][a-z0-9._-]{0,99})$/;
