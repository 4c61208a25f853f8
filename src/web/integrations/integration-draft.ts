import {
  type CreateIntegrationBody,
  INTEGRATION_SECRETS_MAX,
  type Integration,
  type IntegrationKind,
  type IntegrationOwner,
  SECRET_NAME_PATTERN,
  type TestIntegrationBody,
  type UpdateIntegrationBody,
} from "../../contract/integrations";

/**
 * One secret in the form. The value of a saved one never comes back from the server, so a saved
 * secret is kept, replaced by a newly typed value, or removed; a new one is whatever is typed.
 */
export interface SecretRow {
  /** Stable across renders (React keys, error ids), unlike the name being typed. */
  key: string;
  /** The request header (custom) or the kind's field name. */
  name: string;
  saved: boolean;
  action: "keep" | "replace" | "remove";
  value: string;
  /** A kind's own field: its name is fixed and the row cannot be dropped. */
  field: boolean;
  required: boolean;
}

export interface Draft {
  kind: string;
  name: string;
  url: string;
  allowPrivate: boolean;
  skipTlsVerify: boolean;
  allowActions: boolean;
  caCertificate: string;
  secrets: SecretRow[];
}

/** What is wrong with a form before it is sent: by field, and by secret row key. */
export interface DraftProblems {
  name?: "missing";
  url?: "missing";
  secrets: Record<string, SecretProblem>;
}
export type SecretProblem =
  | "nameMissing"
  | "nameInvalid"
  | "nameTwice"
  | "valueMissing"
  | "replacementMissing"
  | "savedSameName";

let rows = 0;
const rowKey = () => `secret-${++rows}`;

export const emptyHeader = (): SecretRow => ({
  key: rowKey(),
  name: "",
  saved: false,
  action: "replace",
  value: "",
  field: false,
  required: false,
});

/** The secret rows of a kind: its fields, each marked saved when the integration has it set. */
function secretRows(kind: IntegrationKind | undefined, savedNames: readonly string[]): SecretRow[] {
  const fields: SecretRow[] = (kind?.secrets ?? []).map((field) => ({
    key: rowKey(),
    name: field.name,
    saved: savedNames.includes(field.name),
    action: savedNames.includes(field.name) ? "keep" : "replace",
    value: "",
    field: true,
    required: field.required,
  }));
  const fieldNames = new Set(fields.map((f) => f.name));
  // Headers (custom), and any saved secret the kind no longer lists, so it can still be removed.
  const others: SecretRow[] = savedNames
    .filter((name) => !fieldNames.has(name))
    .map((name) => ({ ...emptyHeader(), name, saved: true, action: "keep" }));
  const rowsOf = [...fields, ...others];
  if (kind?.headerSecrets && rowsOf.length === 0) rowsOf.push(emptyHeader());
  return rowsOf;
}

export function newDraft(kind: IntegrationKind | undefined): Draft {
  return {
    kind: kind?.kind ?? "",
    name: "",
    url: "",
    allowPrivate: false,
    skipTlsVerify: false,
    allowActions: false,
    caCertificate: "",
    secrets: secretRows(kind, []),
  };
}

/** Another kind chosen in a new form: its fields replace the old kind's, values typed for a same-named one stay. */
export function withKind(draft: Draft, kind: IntegrationKind | undefined): Draft {
  const typed = new Map(draft.secrets.filter((r) => r.value).map((r) => [r.name, r.value]));
  const next = secretRows(kind, []).map((row) =>
    row.field ? { ...row, value: typed.get(row.name) ?? "" } : row,
  );
  return { ...draft, kind: kind?.kind ?? "", secrets: next };
}

export function draftOf(saved: Integration, kind: IntegrationKind | undefined): Draft {
  return {
    kind: saved.kind,
    name: saved.name,
    url: saved.url,
    allowPrivate: saved.allowPrivate,
    skipTlsVerify: saved.skipTlsVerify,
    allowActions: saved.allowActions,
    caCertificate: saved.caCertificate ?? "",
    secrets: secretRows(kind, saved.secrets),
  };
}

/** Rows the user left wholly blank (an added header row never filled in) are not part of the form. */
const blank = (row: SecretRow) => !row.saved && !row.field && !row.name.trim() && !row.value;

const secretName = new RegExp(SECRET_NAME_PATTERN);

/** The checks the browser can make: the server checks again, and more (the address, the certificate). */
export function draftProblems(draft: Draft): DraftProblems {
  const problems: DraftProblems = { secrets: {} };
  if (!draft.name.trim()) problems.name = "missing";
  if (!draft.url.trim()) problems.url = "missing";
  const seen = new Map<string, SecretRow>();
  for (const row of draft.secrets) {
    if (blank(row)) continue;
    const name = row.name.trim();
    let problem: SecretProblem | undefined;
    if (row.saved) {
      if (row.action === "replace" && !row.value) problem = "replacementMissing";
    } else if (!row.field && !name) problem = "nameMissing";
    else if (!row.field && !secretName.test(name)) problem = "nameInvalid";
    else if (!row.value && (!row.field || row.required)) problem = "valueMissing";
    const earlier = seen.get(name.toLowerCase());
    if (!problem && earlier)
      problem = earlier.saved && earlier.action !== "remove" ? "savedSameName" : "nameTwice";
    if (problem) problems.secrets[row.key] = problem;
    // A header removed and added anew under the same name is a replacement: allowed.
    if (name && !(row.saved && row.action === "remove")) seen.set(name.toLowerCase(), row);
  }
  return problems;
}

export const hasProblems = (problems: DraftProblems) =>
  Boolean(problems.name || problems.url || Object.keys(problems.secrets).length);

/** How many header rows the form may show: the saved ones being removed do not count. */
export function canAddHeader(draft: Draft): boolean {
  return draft.secrets.filter((r) => !(r.saved && r.action === "remove")).length < INTEGRATION_SECRETS_MAX;
}

/** The values typed for secrets that are new or replaced, by name. */
function typedSecrets(draft: Draft): Record<string, string> {
  const out: Record<string, string> = {};
  for (const row of draft.secrets) {
    if (blank(row) || !row.value) continue;
    if (row.saved && row.action !== "replace") continue;
    out[row.name.trim()] = row.value;
  }
  return out;
}

/** How the service is reached: the admin-only network and TLS choices, sent only when ticked. */
const reach = (draft: Draft) => ({
  ...(draft.allowPrivate ? { allowPrivate: true } : {}),
  ...(draft.skipTlsVerify ? { skipTlsVerify: true } : {}),
});

const certificate = (draft: Draft) => draft.caCertificate.trim() || null;

export function createBody(draft: Draft, owner: IntegrationOwner): CreateIntegrationBody {
  const secrets = typedSecrets(draft);
  const ca = certificate(draft);
  return {
    kind: draft.kind,
    name: draft.name.trim(),
    url: draft.url.trim(),
    owner,
    // The admin-only settings are sent only when ticked: a member's form never asks for them.
    ...reach(draft),
    ...(draft.allowActions ? { allowActions: true } : {}),
    ...(ca ? { caCertificate: ca } : {}),
    ...(Object.keys(secrets).length ? { secrets } : {}),
  };
}

/**
 * A PUT changes only what it names: the fields that differ from the saved integration, and of
 * the secrets those replaced (their new value) or removed (null). Kept secrets are not named.
 */
export function updateBody(draft: Draft, saved: Integration): UpdateIntegrationBody {
  const body: UpdateIntegrationBody = {};
  if (draft.name.trim() !== saved.name) body.name = draft.name.trim();
  if (draft.url.trim() !== saved.url) body.url = draft.url.trim();
  if (draft.allowPrivate !== saved.allowPrivate) body.allowPrivate = draft.allowPrivate;
  if (draft.skipTlsVerify !== saved.skipTlsVerify) body.skipTlsVerify = draft.skipTlsVerify;
  if (draft.allowActions !== saved.allowActions) body.allowActions = draft.allowActions;
  if (certificate(draft) !== (saved.caCertificate?.trim() || null)) body.caCertificate = certificate(draft);
  const secrets: Record<string, string | null> = {};
  const removed = new Map<string, string>();
  for (const row of draft.secrets)
    if (row.saved && row.action === "remove") {
      secrets[row.name] = null;
      removed.set(row.name.toLowerCase(), row.name);
    }
  // A header removed and typed anew under the same name (in any case) is a replacement of it.
  for (const [name, value] of Object.entries(typedSecrets(draft)))
    secrets[removed.get(name.toLowerCase()) ?? name] = value;
  if (Object.keys(secrets).length) body.secrets = secrets;
  return body;
}

export type TestRequest =
  | { body: TestIntegrationBody }
  /** The form keeps saved secrets the browser does not know, and changes something else: save first. */
  | { body: null };

/**
 * What the Test button sends: a new form as it stands; a saved integration unchanged by its id;
 * a changed one as the form stands, when no saved secret it keeps is needed (their values stay on
 * the server, so an unsaved test cannot carry them).
 */
export function testRequest(draft: Draft, saved?: Integration): TestRequest {
  if (saved && Object.keys(updateBody(draft, saved)).length === 0) return { body: { id: saved.id } };
  if (saved && draft.secrets.some((r) => r.saved && r.action === "keep")) return { body: null };
  const secrets = typedSecrets(draft);
  const ca = certificate(draft);
  return {
    body: {
      kind: draft.kind,
      url: draft.url.trim(),
      ...reach(draft),
      ...(ca ? { caCertificate: ca } : {}),
      ...(Object.keys(secrets).length ? { secrets } : {}),
    },
  };
}

/**
 * Where a server's field error belongs: `/name`, `/url`, `/caCertificate`, or a secret by its
 * name (`/secrets/X-Api-Key`, matched case-insensitively as header names are); else the form.
 */
export function problemTarget(
  path: string,
  draft: Draft,
): "name" | "url" | "caCertificate" | { secret: string } | "form" {
  const [, field, ...rest] = path.split("/");
  if (field === "name" || field === "url" || field === "caCertificate") return field;
  if (field === "secrets" && rest.length) {
    const name = rest.join("/").replaceAll("~1", "/").replaceAll("~0", "~").toLowerCase();
    const row = draft.secrets.find((r) => r.name.trim().toLowerCase() === name);
    if (row) return { secret: row.key };
  }
  return "form";
}

/** "nas.lan:8123" from an integration's address, or the address itself when it does not parse. */
export function hostOf(url: string): string {
  try {
    return new URL(url.replace(/^webcal:/i, "https:")).host || url;
  } catch {
    return url;
  }
}
