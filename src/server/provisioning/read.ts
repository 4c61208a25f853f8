import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { TSchema } from "@sinclair/typebox";
import type { TypeCheck } from "@sinclair/typebox/compiler";
import { parse as parseYaml } from "yaml";
import type { DashboardDocument } from "../../contract/dashboard-document.js";
import { ProblemError } from "../http/errors.js";
import { readDocument } from "../portability/document.js";
import {
  checkDashboardHead,
  checkIntegrationsFile,
  DASHBOARD_HEAD_KEYS,
  type DashboardFileHead,
  INTEGRATION_REFERENCE,
  type ProvisionedIntegration,
} from "./spec.js";

/** Something wrong in one file, said with the file and the JSON path, as the operator needs it. */
export interface ProvisioningProblem {
  file: string;
  path: string;
  message: string;
}

export interface ProvisionedDashboard extends DashboardFileHead {
  file: string;
  document: DashboardDocument;
  /** Of what the file says (after parsing): an unchanged file is not applied again. */
  hash: string;
}

export interface ProvisionedIntegrationEntry extends ProvisionedIntegration {
  file: string;
  /** Its path in the file ("/integrations/2"), for problems found while applying it. */
  at: string;
  hash: string;
}

export interface ProvisioningFiles {
  dashboards: ProvisionedDashboard[];
  integrations: ProvisionedIntegrationEntry[];
  problems: ProvisioningProblem[];
  /**
   * Whether every file could be read: when one could not, nothing is removed, since its
   * dashboards or integrations would otherwise vanish over a typo.
   */
  complete: boolean;
}

const FILE_MAX_BYTES = 5 * 1024 * 1024;
const READABLE = /\.(ya?ml|json)$/i;

export const hashOf = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex");

/** The files of one folder (`dashboards`, `integrations`), by name; none when it is absent. */
async function filesIn(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isFile() && READABLE.test(e.name) && !e.name.startsWith("."))
      .map((e) => path.join(dir, e.name))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** YAML (a superset of JSON) or JSON, as the extension says; a problem names the line. */
async function parseFile(file: string, name: string, problems: ProvisioningProblem[]): Promise<unknown> {
  try {
    const text = await readFile(file, "utf8");
    if (Buffer.byteLength(text) > FILE_MAX_BYTES) {
      problems.push({ file: name, path: "/", message: `is larger than ${FILE_MAX_BYTES} bytes` });
      return undefined;
    }
    return /\.json$/i.test(file) ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100 });
  } catch (error) {
    problems.push({ file: name, path: "/", message: `cannot be read: ${(error as Error).message}` });
    return undefined;
  }
}

function schemaProblems(check: TypeCheck<TSchema>, value: unknown, file: string): ProvisioningProblem[] {
  const found: ProvisioningProblem[] = [];
  for (const error of check.Errors(value)) {
    if (found.length >= 20) break;
    const at = error.path || "/";
    if (!found.some((p) => p.path === at)) found.push({ file, path: at, message: error.message });
  }
  return found;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * `${NAME}` placeholders replaced by the environment's values: secrets live in the environment
 * (or a secret store feeding it), never in the files. A missing variable is a problem, not "".
 */
function withEnvironment(
  value: string,
  env: Readonly<Record<string, string | undefined>>,
  missing: (name: string) => void,
): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const found = env[name];
    if (found === undefined) {
      missing(name);
      return "";
    }
    return found;
  });
}

/** An id of the right shape where a config names a provisioned integration, for the schema check only. */
const STAND_IN_ID = "00000000-0000-4000-8000-000000000000";
function withStandInIds(value: unknown, key?: string): unknown {
  if (typeof value === "string")
    return (key === "integrationId" || key === "integrationIds") && INTEGRATION_REFERENCE.test(value)
      ? STAND_IN_ID
      : value;
  if (Array.isArray(value))
    return value.map((v) => withStandInIds(v, key === "integrationIds" ? key : undefined));
  if (isRecord(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withStandInIds(v, k)]));
  return value;
}

function readDashboard(
  raw: unknown,
  file: string,
  problems: ProvisioningProblem[],
): ProvisionedDashboard | null {
  if (!isRecord(raw)) {
    problems.push({ file, path: "/", message: "must be a dashboard document with a key" });
    return null;
  }
  const head = Object.fromEntries(DASHBOARD_HEAD_KEYS.filter((k) => k in raw).map((k) => [k, raw[k]]));
  const headProblems = schemaProblems(checkDashboardHead, head, file);
  const body = Object.fromEntries(
    Object.entries(raw).filter(([k]) => !(DASHBOARD_HEAD_KEYS as readonly string[]).includes(k)),
  );
  // A hand-written file has no export time; the document requires one.
  body.exportedAt ??= new Date(0).toISOString();
  let document: DashboardDocument | null = null;
  try {
    // Checked with each `integration:<key>` standing in as an id; applying puts the real one.
    readDocument(withStandInIds(body));
    document = body as unknown as DashboardDocument;
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    const listed = (error.extra?.errors as { path: string; message: string }[] | undefined) ?? [];
    if (listed.length === 0) problems.push({ file, path: "/", message: error.detail ?? error.message });
    for (const e of listed) problems.push({ file, path: e.path, message: e.message });
  }
  problems.push(...headProblems);
  if (headProblems.length > 0 || !document) return null;
  const parsed = head as unknown as DashboardFileHead;
  return { ...parsed, file, document, hash: hashOf([parsed, document.dashboard, document.widgets]) };
}

function readIntegrations(
  raw: unknown,
  file: string,
  env: Readonly<Record<string, string | undefined>>,
  problems: ProvisioningProblem[],
): ProvisionedIntegrationEntry[] {
  const found = schemaProblems(checkIntegrationsFile, raw, file);
  if (found.length > 0) {
    problems.push(...found);
    return [];
  }
  const list = (raw as { integrations: ProvisionedIntegration[] }).integrations;
  const entries: ProvisionedIntegrationEntry[] = [];
  list.forEach((entry, index) => {
    const at = `/integrations/${index}`;
    let usable = true;
    const secrets = Object.fromEntries(
      Object.entries(entry.secrets ?? {}).map(([name, value]) => [
        name,
        withEnvironment(value, env, (variable) => {
          usable = false;
          problems.push({
            file,
            path: `${at}/secrets/${name}`,
            message: `names the environment variable ${variable}, which is not set`,
          });
        }),
      ]),
    );
    if (!usable) return;
    const resolved = { ...entry, secrets };
    entries.push({ ...resolved, file, at, hash: hashOf(resolved) });
  });
  return entries;
}

/** Everything under `dir` that can be applied, and what cannot, with file and path. */
export async function readProvisioning(
  dir: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ProvisioningFiles> {
  const problems: ProvisioningProblem[] = [];
  const dashboards: ProvisionedDashboard[] = [];
  const integrations: ProvisionedIntegrationEntry[] = [];
  let complete = true;
  const name = (file: string) => path.relative(dir, file);

  for (const file of await filesIn(path.join(dir, "dashboards"))) {
    const before = problems.length;
    const raw = await parseFile(file, name(file), problems);
    const dashboard = raw === undefined ? null : readDashboard(raw, name(file), problems);
    if (dashboard) dashboards.push(dashboard);
    else if (problems.length > before) complete = false;
  }
  for (const file of await filesIn(path.join(dir, "integrations"))) {
    const before = problems.length;
    const raw = await parseFile(file, name(file), problems);
    if (raw !== undefined) integrations.push(...readIntegrations(raw, name(file), env, problems));
    if (problems.length > before) complete = false;
  }
  for (const [what, list] of [
    ["dashboard", dashboards],
    ["integration", integrations],
  ] as const) {
    const seen = new Map<string, string>();
    for (const item of list) {
      const first = seen.get(item.key);
      if (first)
        problems.push({
          file: item.file,
          path: "/key",
          message: `${what} key ${item.key} is also in ${first}`,
        });
      else seen.set(item.key, item.file);
    }
  }
  return {
    dashboards: uniqueByKey(dashboards),
    integrations: uniqueByKey(integrations),
    problems,
    complete,
  };
}

/** The first of each key (files in name order): a repeated key is a problem, not a second write. */
function uniqueByKey<T extends { key: string }>(list: T[]): T[] {
  const seen = new Set<string>();
  return list.filter((item) => !seen.has(item.key) && seen.add(item.key));
}
