import type { Static } from "@sinclair/typebox";
import { Type } from "./typebox.js";

/**
 * Integrations (DESIGN section 16): saved connections to the services a dashboard shows. An
 * integration belongs to one person ("me", from the caller's side) or to the instance (admins make
 * those; every user may use them). Secrets are write-only: answered as the names of those set.
 */

export const INTEGRATION_OWNERS = ["me", "instance"] as const;
export type IntegrationOwner = (typeof INTEGRATION_OWNERS)[number];

export const INTEGRATION_NAME_MAX = 100;
export const INTEGRATION_URL_MAX = 2048;
/** A custom integration's secrets are request headers; this many at most. */
export const INTEGRATION_SECRETS_MAX = 10;
export const INTEGRATION_SECRET_MAX = 4096;
/** A CA certificate in PEM (a chain of a few certificates fits easily). */
export const INTEGRATION_CA_MAX = 16 * 1024;
export const INTEGRATIONS_PER_USER = 100;
/** The preview answers at most this much of the service's JSON (longer lists and texts are cut). */
export const PREVIEW_MAX_BYTES = 64 * 1024;
export const PREVIEW_PATH_MAX = 1024;

/** A header name as HTTP allows it (RFC 9110 token), or a kind's fixed secret name. */
export const SECRET_NAME_PATTERN = "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$";

const Timestamp = Type.String({ format: "date-time", description: "ISO 8601, UTC, milliseconds" });
const Uuid = Type.String({ format: "uuid" });
const Name = Type.String({ minLength: 1, maxLength: INTEGRATION_NAME_MAX });
const Url = Type.String({
  minLength: 1,
  maxLength: INTEGRATION_URL_MAX,
  description:
    "The service's base address, http or https (`webcal:` is read as https); `unix:///path` for kinds that take a socket",
});
const CaCertificate = Type.Union([Type.String({ maxLength: INTEGRATION_CA_MAX }), Type.Null()], {
  description:
    "A CA certificate (PEM) to trust for this service's TLS, for self-signed services; null for none",
});
const SkipTlsVerify = Type.Boolean({
  description:
    "Admins only: accept any TLS certificate from this service (prefer `caCertificate`: this also accepts an impostor's)",
});
const AllowPrivate = Type.Boolean({
  description:
    "Admins only: the service is on the home network, so private, loopback and link-local addresses may be reached for this integration",
});
const AllowActions = Type.Boolean({
  description:
    "Admins only: widgets may act through this integration (toggle a light, pause ad blocking, stop a container), editors of their dashboard only, each recorded in the audit log",
});
const SecretValue = Type.String({ minLength: 1, maxLength: INTEGRATION_SECRET_MAX });

export const IntegrationCheckSchema = Type.Object(
  {
    ok: Type.Boolean(),
    latencyMs: Type.Integer({ minimum: 0, description: "How long the test call took" }),
    detail: Type.String({ description: "What was reached, or what went wrong, in words" }),
  },
  { $id: "IntegrationCheck" },
);
export type IntegrationCheck = Static<typeof IntegrationCheckSchema>;

export const IntegrationSchema = Type.Object(
  {
    id: Uuid,
    kind: Type.String({ description: "One of GET /api/integrations/kinds" }),
    name: Type.String(),
    url: Type.String(),
    owner: Type.Union(
      INTEGRATION_OWNERS.map((o) => Type.Literal(o)),
      { description: "`me`: the caller's own; `instance`: an admin's, usable by every user" },
    ),
    allowPrivate: Type.Boolean(),
    skipTlsVerify: Type.Boolean(),
    allowActions: Type.Boolean(),
    caCertificate: Type.Union([Type.String(), Type.Null()]),
    secrets: Type.Array(Type.String(), { description: "The names of the secrets set; never their values" }),
    editable: Type.Boolean({ description: "Whether the caller may change or delete it" }),
    provisionKey: Type.Union([Type.String(), Type.Null()], {
      description:
        "The `key` of the provisioning file it comes from (DESIGN section 17): changed there only (writes answer 409 `provisioned`); null for one made in the app",
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    lastCheck: Type.Union([
      Type.Object({ at: Timestamp, ok: Type.Boolean(), latencyMs: Type.Integer(), detail: Type.String() }),
      Type.Null(),
    ]),
  },
  { $id: "Integration" },
);
export type Integration = Static<typeof IntegrationSchema>;

export const CreateIntegrationBody = Type.Object({
  kind: Type.String({ minLength: 1, maxLength: 40 }),
  name: Name,
  url: Url,
  owner: Type.Optional(
    Type.Union(
      INTEGRATION_OWNERS.map((o) => Type.Literal(o)),
      { description: "Default `me`; `instance` is for admins", default: "me" },
    ),
  ),
  allowPrivate: Type.Optional(AllowPrivate),
  skipTlsVerify: Type.Optional(SkipTlsVerify),
  allowActions: Type.Optional(AllowActions),
  caCertificate: Type.Optional(CaCertificate),
  secrets: Type.Optional(
    Type.Record(Type.String({ pattern: SECRET_NAME_PATTERN }), SecretValue, {
      description:
        "Secret values by name: the kind's secret fields, or for `custom` request headers (`Authorization`, `X-Api-Key`)",
    }),
  ),
});
export type CreateIntegrationBody = Static<typeof CreateIntegrationBody>;

export const UpdateIntegrationBody = Type.Object({
  name: Type.Optional(Name),
  url: Type.Optional(Url),
  allowPrivate: Type.Optional(AllowPrivate),
  skipTlsVerify: Type.Optional(SkipTlsVerify),
  allowActions: Type.Optional(AllowActions),
  caCertificate: Type.Optional(CaCertificate),
  secrets: Type.Optional(
    Type.Record(Type.String({ pattern: SECRET_NAME_PATTERN }), Type.Union([SecretValue, Type.Null()]), {
      description: "Only the secrets named change: a value replaces it, null removes it; the others stay",
    }),
  ),
});
export type UpdateIntegrationBody = Static<typeof UpdateIntegrationBody>;

export const IntegrationSecretFieldSchema = Type.Object({
  name: Type.String(),
  label: Type.String(),
  required: Type.Boolean(),
  help: Type.String({ description: "Where to find or make it on the service's side" }),
});
export type IntegrationSecretField = Static<typeof IntegrationSecretFieldSchema>;

export const IntegrationKindSchema = Type.Object(
  {
    kind: Type.String(),
    label: Type.String(),
    description: Type.String(),
    urlPlaceholder: Type.String(),
    secrets: Type.Array(IntegrationSecretFieldSchema),
    headerSecrets: Type.Boolean({
      description: "true for `custom`: any request header may be a secret, by its name",
    }),
    unixSocket: Type.Boolean({
      description:
        "true for `docker`: the address may be a Unix socket, `unix:///var/run/docker.sock` (admins only, instance integrations only)",
    }),
    clientCertificate: Type.Boolean({
      description:
        "true for `docker`: the secrets `tlsCertificate` and `tlsKey` (PEM) are sent as the TLS client certificate of an https address",
    }),
  },
  { $id: "IntegrationKind" },
);
export type IntegrationKind = Static<typeof IntegrationKindSchema>;

export const TestIntegrationBody = Type.Union([
  Type.Object({ id: Uuid }, { additionalProperties: false }),
  Type.Object(
    {
      kind: Type.String({ minLength: 1, maxLength: 40 }),
      name: Type.Optional(
        Type.String({ maxLength: INTEGRATION_NAME_MAX, description: "Ignored: a form may send it" }),
      ),
      url: Url,
      allowPrivate: Type.Optional(AllowPrivate),
      skipTlsVerify: Type.Optional(SkipTlsVerify),
      caCertificate: Type.Optional(CaCertificate),
      secrets: Type.Optional(Type.Record(Type.String({ pattern: SECRET_NAME_PATTERN }), SecretValue)),
    },
    { additionalProperties: false },
  ),
]);
export type TestIntegrationBody = Static<typeof TestIntegrationBody>;

export const PreviewBody = Type.Object(
  {
    integrationId: Type.Optional(Uuid),
    url: Type.Optional(Url),
    path: Type.Optional(
      Type.String({
        maxLength: PREVIEW_PATH_MAX,
        description: "Appended to the integration's address (`/api/states`); with `url`, leave it out",
      }),
    ),
  },
  { additionalProperties: false },
);
export type PreviewBody = Static<typeof PreviewBody>;

export const PreviewSchema = Type.Object(
  {
    status: Type.Integer({ description: "The service's HTTP status" }),
    json: Type.Unknown({ description: "The service's JSON, cut to at most 64 KiB" }),
    truncated: Type.Boolean({ description: "Whether long lists or texts were cut to fit" }),
  },
  { $id: "IntegrationPreview" },
);
export type Preview = Static<typeof PreviewSchema>;
