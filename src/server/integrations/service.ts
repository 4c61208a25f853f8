import { createPrivateKey, X509Certificate } from "node:crypto";
import { and, asc, count, eq, isNotNull, isNull, notInArray, or, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import {
  type CreateIntegrationBody,
  INTEGRATION_SECRETS_MAX,
  INTEGRATIONS_PER_USER,
  type Integration,
  type IntegrationCheck,
  type UpdateIntegrationBody,
} from "../../contract/integrations.js";
import { INTEGRATION_KINDS, integrationKind } from "../../integrations/index.js";
import { CLIENT_CERTIFICATE_SECRETS, type IntegrationKindDefinition } from "../../integrations/kit.js";
import type { AuditLog } from "../audit/record.js";
import type { TokenCipher } from "../auth/token-cipher.js";
import type { Db } from "../db/client.js";
import { integrations } from "../db/schema.js";
import { badRequest, forbidden, limitReached, notFound, ProblemError, provisioned } from "../http/errors.js";
import type { UserActor } from "../policies/actor.js";
import type { Reach } from "../upstream/address-guard.js";
import type { UpstreamFetch, UpstreamResponse } from "../upstream/fetch.js";
import { addressOf, normalizeUrl, socketPathOf } from "./address.js";
import { describeFailure } from "./failures.js";
import type { IntegrationKindServer, IntegrationSession } from "./kit.js";
import { IntegrationSessions } from "./sessions.js";
import type { IntegrationRequest, Integrations, UsableIntegration } from "./types.js";

type Row = typeof integrations.$inferSelect;

/** An integrations file's entry, its secrets' placeholders filled from the environment. */
export interface ProvisionInput {
  key: string;
  kind: string;
  name: string;
  url: string;
  /** null: the instance's. */
  ownerId: string | null;
  allowPrivate?: boolean;
  skipTlsVerify?: boolean;
  allowActions?: boolean;
  caCertificate?: string;
  secrets: Record<string, string>;
  hash: string;
}

export interface IntegrationServiceDeps {
  db: Db;
  audit: AuditLog;
  cipher: TokenCipher;
  fetch: UpstreamFetch;
  /** Resolves a saved address now: refuses one the server may not reach (address-guard.ts). */
  checkAddress(url: URL, reach: Reach): Promise<void>;
  servers: () => Promise<ReadonlyMap<string, IntegrationKindServer>>;
  clock: () => number;
}

const isAdmin = (actor: UserActor) => actor.role === "admin";

/** The integrations an actor may see and use: their own, and the instance's. */
const visibleTo = (userId: string) => or(eq(integrations.ownerId, userId), isNull(integrations.ownerId));

function checkCertificate(pem: string | null | undefined) {
  if (!pem) return;
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  const bad = () =>
    badRequest("caCertificate is not a certificate", [
      {
        path: "/caCertificate",
        message: "must be one or more PEM certificates (-----BEGIN CERTIFICATE-----)",
      },
    ]);
  if (blocks.length === 0) throw bad();
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch {
      throw bad();
    }
  }
}

/** Secret names and values a kind takes: its fields, or (custom) request headers. */
/** A client certificate's secrets are PEM (many lines), never headers: read as what they claim to be. */
const PEM_SECRETS = new Set<string>(Object.values(CLIENT_CERTIFICATE_SECRETS));
function pemProblem(name: string, value: string): string | null {
  try {
    if (name === CLIENT_CERTIFICATE_SECRETS.cert) new X509Certificate(value);
    else createPrivateKey(value);
    return null;
  } catch {
    return name === CLIENT_CERTIFICATE_SECRETS.cert
      ? "must be a certificate in PEM (-----BEGIN CERTIFICATE-----)"
      : "must be an unencrypted private key in PEM (-----BEGIN PRIVATE KEY-----)";
  }
}

function checkSecrets(
  kind: IntegrationKindDefinition,
  secrets: Readonly<Record<string, string | null>>,
  kept: readonly string[],
) {
  const errors: { path: string; message: string }[] = [];
  const fields = new Map(kind.secrets.map((field) => [field.name, field]));
  for (const [name, value] of Object.entries(secrets)) {
    const path = `/secrets/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`;
    if (!kind.headerSecrets && !fields.has(name))
      errors.push({
        path,
        message: `is not a secret of ${kind.label}; it takes ${kind.secrets.map((f) => f.name).join(", ") || "none"}`,
      });
    else if (kind.headerSecrets && /^(host|content-length|transfer-encoding|connection)$/i.test(name))
      errors.push({ path, message: "is a header the server sets itself" });
    const pem = kind.clientCertificate === true && PEM_SECRETS.has(name);
    if (value !== null && pem) {
      const problem = pemProblem(name, value);
      if (problem) errors.push({ path, message: problem });
    } else if (value !== null && /[\r\n\0]/.test(value)) errors.push({ path, message: "must be one line" });
  }
  const after = new Set([
    ...kept.filter((name) => !(name in secrets)),
    ...Object.entries(secrets)
      .filter(([, value]) => value !== null)
      .map(([name]) => name),
  ]);
  for (const field of kind.secrets)
    if (field.required && !after.has(field.name))
      errors.push({ path: `/secrets/${field.name}`, message: `is required for ${kind.label}` });
  if (after.size > INTEGRATION_SECRETS_MAX)
    errors.push({ path: "/secrets", message: `must hold at most ${INTEGRATION_SECRETS_MAX} secrets` });
  if (errors.length > 0) throw badRequest("secrets are not valid for this kind", errors);
}

function kindOf(name: string, path = "/kind"): IntegrationKindDefinition {
  const kind = integrationKind(name);
  if (!kind)
    throw badRequest(`unknown integration kind ${JSON.stringify(name)}`, [
      { path, message: `must be one of ${INTEGRATION_KINDS.map((k) => k.kind).join(", ")}` },
    ]);
  return kind;
}

/**
 * Admin-only choices (DESIGN section 16): private addresses, skipping TLS verification, and
 * actions through the integration.
 */
function checkAdminChoices(
  actor: UserActor,
  body: { allowPrivate?: boolean; skipTlsVerify?: boolean; allowActions?: boolean },
) {
  if (isAdmin(actor)) return;
  if (body.allowPrivate) throw forbidden("Only an admin may let an integration reach a private address");
  if (body.skipTlsVerify) throw forbidden("Only an admin may turn off TLS verification for an integration");
  if (body.allowActions) throw forbidden("Only an admin may allow actions through an integration");
}

/** Refuses an action through an integration whose actions an admin has not turned on. */
export function requireActions(integration: UsableIntegration) {
  if (!integration.allowActions)
    throw forbidden(
      `Actions through ${integration.name} are off: an admin can turn them on in the integration's settings`,
    );
}

/**
 * A Unix socket reaches the host's daemon (Docker: root on that machine), so only an admin may
 * name one, and only for an instance integration.
 */
function checkSocket(actor: UserActor, url: URL, instance: boolean) {
  if (socketPathOf(url) === null) return;
  if (!isAdmin(actor)) throw forbidden("Only an admin may connect an integration through a Unix socket");
  if (!instance)
    throw badRequest("a socket is for instance integrations", [
      { path: "/owner", message: "must be instance for a unix:// address" },
    ]);
}

export class IntegrationService implements Integrations {
  private readonly sessions: IntegrationSessions;

  constructor(private readonly deps: IntegrationServiceDeps) {
    this.sessions = new IntegrationSessions(deps.clock);
  }

  kinds() {
    return INTEGRATION_KINDS.map((kind) => ({
      ...kind,
      secrets: [...kind.secrets],
      unixSocket: kind.unixSocket ?? false,
      clientCertificate: kind.clientCertificate ?? false,
    }));
  }

  answer(row: Row, actor: UserActor): Integration {
    return {
      id: row.id,
      kind: row.kind,
      name: row.name,
      url: row.url,
      owner: row.ownerId === null ? "instance" : "me",
      allowPrivate: row.allowPrivate,
      skipTlsVerify: row.skipTlsVerify,
      allowActions: row.allowActions,
      caCertificate: row.caCertificate,
      secrets: Object.keys(row.secrets).sort(),
      editable:
        row.provisionKey === null &&
        (row.ownerId === actor.user.id || (row.ownerId === null && isAdmin(actor))),
      provisionKey: row.provisionKey,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      lastCheck: row.lastCheck ?? null,
    };
  }

  async list(actor: UserActor): Promise<Integration[]> {
    const rows = await this.deps.db
      .select()
      .from(integrations)
      .where(visibleTo(actor.user.id))
      .orderBy(sql`${integrations.ownerId} is null`, asc(integrations.name), asc(integrations.id));
    return rows.map((row) => this.answer(row, actor));
  }

  private async visibleRow(userId: string, id: string): Promise<Row> {
    const [row] = await this.deps.db
      .select()
      .from(integrations)
      .where(and(eq(integrations.id, id), visibleTo(userId)))
      .limit(1);
    if (!row) throw notFound("Integration");
    return row;
  }

  async get(actor: UserActor, id: string) {
    return this.answer(await this.visibleRow(actor.user.id, id), actor);
  }

  /** The row, when the actor may change it (404 when they may not even see it). */
  private async editableRow(actor: UserActor, id: string) {
    const row = await this.visibleRow(actor.user.id, id);
    if (row.ownerId === null && !isAdmin(actor))
      throw forbidden("Only an admin may change an instance integration");
    if (row.provisionKey !== null)
      throw provisioned(
        `This integration is provisioned from a file on the server (key ${row.provisionKey}); change it there`,
      );
    return row;
  }

  /**
   * An integration from a provisioning file (DESIGN section 17), created or brought in line with
   * it by key; the file is trusted as an admin is. Checked as a creation is: a problem throws a
   * 400 whose errors carry paths within the entry.
   */
  async provision(entry: ProvisionInput): Promise<"created" | "updated" | "unchanged"> {
    const kind = kindOf(entry.kind);
    const url = normalizeUrl(entry.url, "/url", kind);
    if (socketPathOf(url) !== null && entry.ownerId !== null)
      throw badRequest("a socket is for instance integrations", [
        { path: "/owner", message: "must be left out (the instance's) for a unix:// address" },
      ]);
    checkCertificate(entry.caCertificate);
    checkSecrets(kind, entry.secrets, []);
    const reach = reachOf(entry, url);
    const [row] = await this.deps.db
      .select()
      .from(integrations)
      .where(eq(integrations.provisionKey, entry.key))
      .limit(1);
    if (row?.provisionHash === entry.hash && row.ownerId === entry.ownerId) return "unchanged";
    await this.deps.checkAddress(url, reach);
    const now = new Date(this.deps.clock());
    const fields = {
      ownerId: entry.ownerId,
      kind: kind.kind,
      name: entry.name.trim() || kind.label,
      url: url.href,
      allowPrivate: reach.allowPrivate,
      skipTlsVerify: reach.skipTlsVerify,
      caCertificate: reach.caCertificate,
      allowActions: entry.allowActions ?? false,
      secrets: this.sealed(entry.secrets),
      provisionKey: entry.key,
      provisionHash: entry.hash,
      lastCheck: null,
      updatedAt: now,
    };
    // Keyed by the unique provision key: two instances applying at once write one row.
    await this.deps.db
      .insert(integrations)
      .values({ id: uuidv7(), createdAt: now, ...fields })
      .onConflictDoUpdate({ target: integrations.provisionKey, set: fields });
    return row ? "updated" : "created";
  }

  /** The provisioned integrations' ids by key (widget configs name them as `integration:<key>`). */
  async provisionedIds(): Promise<Map<string, string>> {
    const rows = await this.deps.db
      .select({ id: integrations.id, key: integrations.provisionKey })
      .from(integrations)
      .where(isNotNull(integrations.provisionKey));
    return new Map(rows.map((r) => [r.key!, r.id]));
  }

  /** Provisioned integrations whose files no longer name them, removed; how many. */
  async removeProvisionedBut(keys: readonly string[]): Promise<number> {
    const gone = await this.deps.db
      .delete(integrations)
      .where(
        and(
          isNotNull(integrations.provisionKey),
          keys.length > 0 ? notInArray(integrations.provisionKey, [...keys]) : undefined,
        ),
      )
      .returning({ id: integrations.id });
    return gone.length;
  }

  async create(actor: UserActor, body: CreateIntegrationBody): Promise<Integration> {
    const kind = kindOf(body.kind);
    const instance = body.owner === "instance";
    if (instance && !isAdmin(actor)) throw forbidden("Only an admin may create an instance integration");
    checkAdminChoices(actor, body);
    const url = normalizeUrl(body.url, "/url", kind);
    checkSocket(actor, url, instance);
    checkCertificate(body.caCertificate);
    const secrets = body.secrets ?? {};
    checkSecrets(kind, secrets, []);
    const reach = reachOf(body, url);
    await this.deps.checkAddress(url, reach);
    const now = new Date(this.deps.clock());
    return this.deps.db.transaction(async (tx) => {
      if (!instance) {
        const [{ value: owned } = { value: 0 }] = await tx
          .select({ value: count() })
          .from(integrations)
          .where(eq(integrations.ownerId, actor.user.id));
        if (owned >= INTEGRATIONS_PER_USER)
          throw limitReached(`At most ${INTEGRATIONS_PER_USER} integrations per person`);
      }
      const [row] = await tx
        .insert(integrations)
        .values({
          id: uuidv7(),
          ownerId: instance ? null : actor.user.id,
          kind: kind.kind,
          name: body.name.trim() || kind.label,
          url: url.href,
          allowPrivate: reach.allowPrivate,
          skipTlsVerify: reach.skipTlsVerify,
          caCertificate: reach.caCertificate,
          allowActions: body.allowActions ?? false,
          secrets: this.sealed(secrets),
          createdBy: actor.user.id,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await this.deps.audit.record(
        actor,
        { action: "integration.created", target: `integration:${row!.id}`, detail: summary(row!) },
        tx,
      );
      return this.answer(row!, actor);
    });
  }

  async update(actor: UserActor, id: string, body: UpdateIntegrationBody): Promise<Integration> {
    const row = await this.editableRow(actor, id);
    const kind = kindOf(row.kind);
    // Turning an admin's choice off is anyone's right; turning it on is an admin's.
    checkAdminChoices(actor, {
      allowPrivate: body.allowPrivate === true && !row.allowPrivate,
      skipTlsVerify: body.skipTlsVerify === true && !row.skipTlsVerify,
      allowActions: body.allowActions === true && !row.allowActions,
    });
    const url = body.url === undefined ? new URL(row.url) : normalizeUrl(body.url, "/url", kind);
    if (body.url !== undefined) checkSocket(actor, url, row.ownerId === null);
    if (body.caCertificate !== undefined) checkCertificate(body.caCertificate);
    const changes = body.secrets ?? {};
    checkSecrets(kind, changes, Object.keys(row.secrets));
    const reach: Reach = {
      allowPrivate: body.allowPrivate ?? row.allowPrivate,
      skipTlsVerify: body.skipTlsVerify ?? row.skipTlsVerify,
      caCertificate: body.caCertificate === undefined ? row.caCertificate : body.caCertificate || null,
      socketPath: socketPathOf(url),
    };
    if (body.url !== undefined || body.allowPrivate === false) await this.deps.checkAddress(url, reach);
    const secrets = { ...row.secrets };
    for (const [name, value] of Object.entries(changes)) {
      if (value === null) delete secrets[name];
      else secrets[name] = this.deps.cipher.encrypt(value);
    }
    const [updated] = await this.deps.db
      .update(integrations)
      .set({
        name: body.name?.trim() || row.name,
        url: url.href,
        allowPrivate: reach.allowPrivate,
        skipTlsVerify: reach.skipTlsVerify,
        caCertificate: reach.caCertificate,
        allowActions: body.allowActions ?? row.allowActions,
        secrets,
        // A check of the old address says nothing about the new one.
        lastCheck: body.url === undefined && body.secrets === undefined ? row.lastCheck : null,
        updatedAt: new Date(this.deps.clock()),
      })
      .where(eq(integrations.id, row.id))
      .returning();
    if (!updated) throw notFound("Integration");
    await this.deps.audit.record(actor, {
      action: "integration.changed",
      target: `integration:${row.id}`,
      // Which secrets changed, by name; never a value.
      detail: { ...summary(updated), secretsChanged: Object.keys(changes).sort() },
    });
    return this.answer(updated, actor);
  }

  async remove(actor: UserActor, id: string) {
    const row = await this.editableRow(actor, id);
    await this.deps.db.delete(integrations).where(eq(integrations.id, row.id));
    await this.deps.audit.record(actor, {
      action: "integration.deleted",
      target: `integration:${row.id}`,
      detail: summary(row),
    });
  }

  async usable(userId: string, id: string, kind?: string): Promise<UsableIntegration> {
    const row = await this.visibleRow(userId, id);
    if (kind !== undefined && row.kind !== kind) throw notFound("Integration");
    return this.opened(row);
  }

  private opened(row: Row): UsableIntegration {
    const secrets: Record<string, string> = {};
    for (const [name, value] of Object.entries(row.secrets)) secrets[name] = this.deps.cipher.decrypt(value);
    return {
      id: row.id,
      kind: row.kind,
      name: row.name,
      url: row.url,
      ownerId: row.ownerId,
      allowPrivate: row.allowPrivate,
      skipTlsVerify: row.skipTlsVerify,
      allowActions: row.allowActions,
      caCertificate: row.caCertificate,
      secrets,
    };
  }

  private sealed(secrets: Readonly<Record<string, string>>): Record<string, string> {
    return Object.fromEntries(
      Object.entries(secrets).map(([name, value]) => [name, this.deps.cipher.encrypt(value)]),
    );
  }

  private async server(kind: string): Promise<IntegrationKindServer> {
    const server = (await this.deps.servers()).get(kind);
    if (!server) throw new Error(`integration kind ${kind} has no server half`);
    return server;
  }

  /** `signedIn` collects the sessions this call signed in with (a connection test ends them). */
  async call(
    integration: UsableIntegration,
    request: IntegrationRequest,
    signedIn?: IntegrationSession[],
  ): Promise<UpstreamResponse> {
    const kind = await this.server(integration.kind);
    const { signIn } = kind;
    if (!signIn) return this.send(kind, integration, request);
    const sign = async () => {
      const made = await signIn((r) => this.send(kind, integration, r), integration.secrets);
      signedIn?.push(made);
      return made;
    };
    let session = await this.sessions.get(integration, sign);
    const response = await this.send(kind, integration, request, session);
    if (response.status !== 401 && response.status !== 403) return response;
    // The service forgot the session (a restart, a timeout): one new sign-in, one retry.
    this.sessions.forget(integration, session);
    session = await this.sessions.get(integration, sign);
    return this.send(kind, integration, request, session);
  }

  private send(
    kind: IntegrationKindServer,
    integration: UsableIntegration,
    request: IntegrationRequest,
    session?: IntegrationSession,
  ): Promise<UpstreamResponse> {
    const { path, query, headers, what, ...rest } = request;
    return this.deps.fetch({
      ...rest,
      url: addressOf(integration.url, path, query).href,
      service: integration.name,
      what,
      headers: { ...headers, ...kind.headers(integration.secrets), ...session?.headers },
      reach: reachOf(integration, integration.url, integration.secrets),
      // A redirect is answered, not followed: the secrets would travel with it.
      followRedirects: false,
    });
  }

  /**
   * Tests a connection: a saved one (its last check is recorded) or one being filled in (checked
   * as its creation would be, then called, nothing saved).
   */
  async test(
    actor: UserActor,
    body: { id: string } | (Omit<CreateIntegrationBody, "name" | "owner"> & { name?: string }),
  ): Promise<IntegrationCheck> {
    let integration: UsableIntegration;
    if ("id" in body) integration = await this.usable(actor.user.id, body.id);
    else {
      const kind = kindOf(body.kind);
      checkAdminChoices(actor, body);
      const url = normalizeUrl(body.url, "/url", kind);
      checkSocket(actor, url, true);
      checkCertificate(body.caCertificate);
      checkSecrets(kind, body.secrets ?? {}, []);
      const reach = reachOf(body, url);
      await this.deps.checkAddress(url, reach);
      integration = {
        id: "",
        kind: kind.kind,
        name: kind.label,
        url: url.href,
        ownerId: actor.user.id,
        allowPrivate: reach.allowPrivate,
        skipTlsVerify: reach.skipTlsVerify,
        caCertificate: reach.caCertificate,
        allowActions: false,
        secrets: body.secrets ?? {},
      };
    }
    const started = performance.now();
    const kind = await this.server(integration.kind);
    // An unsaved connection signs in afresh for every call: those sessions end with the test.
    const signedIn: IntegrationSession[] = [];
    let check: IntegrationCheck;
    try {
      const detail = await kind.test((request) =>
        this.call(integration, request, integration.id ? undefined : signedIn),
      );
      check = { ok: true, latencyMs: Math.round(performance.now() - started), detail };
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      check = {
        ok: false,
        latencyMs: Math.round(performance.now() - started),
        detail: describeFailure(error),
      };
    } finally {
      const { signOut } = kind;
      if (signOut)
        await Promise.allSettled(
          signedIn.map((session) => signOut((request) => this.send(kind, integration, request, session))),
        );
    }
    if ("id" in body)
      await this.deps.db
        .update(integrations)
        .set({ lastCheck: { at: new Date(this.deps.clock()).toISOString(), ...check } })
        .where(eq(integrations.id, body.id));
    return check;
  }
}

/**
 * How the integration's service is reached: its admin's choices, its socket when its address is
 * one, and the client certificate from its secrets when its kind takes one.
 */
function reachOf(
  body: { allowPrivate?: boolean; skipTlsVerify?: boolean; caCertificate?: string | null },
  url: string | URL,
  secrets: Readonly<Record<string, string>> = {},
): Reach {
  const cert = secrets[CLIENT_CERTIFICATE_SECRETS.cert];
  const key = secrets[CLIENT_CERTIFICATE_SECRETS.key];
  return {
    allowPrivate: body.allowPrivate ?? false,
    skipTlsVerify: body.skipTlsVerify ?? false,
    caCertificate: body.caCertificate || null,
    socketPath: socketPathOf(url),
    clientCertificate: cert && key ? { cert, key } : null,
  };
}

/** What the audit log keeps of an integration: never its secrets, only their names. */
function summary(row: Row) {
  return {
    kind: row.kind,
    name: row.name,
    url: row.url,
    owner: row.ownerId === null ? "instance" : row.ownerId,
    allowPrivate: row.allowPrivate,
    skipTlsVerify: row.skipTlsVerify,
    allowActions: row.allowActions,
    secrets: Object.keys(row.secrets).sort(),
  };
}
