import { asc, inArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { DashboardChanges } from "../db/changes.js";
import type { Db } from "../db/client.js";
import { user } from "../db/schema.js";
import { ProblemError } from "../http/errors.js";
import type { IntegrationService } from "../integrations/service.js";
import type { EventBus } from "../realtime/bus.js";
import { announceAccess } from "../sharing/access-changes.js";
import { applyDashboard, type Outcome, removeDashboardsBut } from "./apply-dashboards.js";
import { type ProvisioningProblem, readProvisioning } from "./read.js";

export interface ProvisionerDeps {
  dir: string;
  db: Db;
  changes: DashboardChanges;
  /** Members given or denied access by a file are told at once, as the sharing API tells them. */
  bus: EventBus;
  integrations: IntegrationService;
  env: Readonly<Record<string, string | undefined>>;
  log: FastifyBaseLogger;
  /** Watch the folder for changes (chokidar; polling where inotify cannot see them). */
  watch: boolean;
  /** Polling interval when the environment asks for polling (CHOKIDAR_USEPOLLING, container mounts). */
  pollIntervalMs?: number;
}

/** What one run did, for logs and tests. */
export interface ProvisioningRun {
  dashboards: Record<Outcome, number> & { removed: number };
  integrations: { created: number; updated: number; unchanged: number; removed: number };
  problems: ProvisioningProblem[];
}

/** How long file events settle before a run: an editor's save is several events. */
const SETTLE_MS = 250;

/**
 * Applies `PROVISIONING_DIR` (DESIGN section 17): at start, when a file changes, and when an
 * account is created (a dashboard waiting for its owner). Runs never overlap in one process;
 * across instances each item is written under its own lock and compared by hash, so every
 * instance may run and the outcome is one write per change.
 */
const noop = () => {};

export class Provisioner {
  private running: Promise<ProvisioningRun> | null = null;
  /** The run after the current one, shared by everyone who asked during it. */
  private next: Promise<ProvisioningRun> | null = null;
  private nextRetriesPartial = false;
  private watcher: { close(): Promise<void> } | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly listeners = new Set<(run: ProvisioningRun) => void>();
  /** The last finished run. */
  last: ProvisioningRun | null = null;

  /** Calls `listener` after every run (tests wait on it rather than on time). */
  onApplied(listener: (run: ProvisioningRun) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  constructor(private readonly deps: ProvisionerDeps) {}

  async start(): Promise<ProvisioningRun> {
    const first = await this.apply();
    if (this.deps.watch && !this.closed) {
      const { watch } = await import("chokidar");
      const watcher = watch(this.deps.dir, {
        ignoreInitial: true,
        // Atomic saves (vim, sed -i, Ansible) replace the file: wait for the write to finish.
        awaitWriteFinish: { stabilityThreshold: 100, pollInterval: 50 },
        ...(this.deps.pollIntervalMs ? { usePolling: true, interval: this.deps.pollIntervalMs } : {}),
      });
      watcher.on("all", () => this.soon());
      watcher.on("error", (error) => this.deps.log.warn({ err: error }, "provisioning: watching failed"));
      await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
      this.watcher = watcher;
    }
    return first;
  }

  /**
   * A run that reads the files as they are now: at once, or right after the current run when one
   * is under way (it may have read them before they changed). Every call made during a run shares
   * the one run after it, so callers arriving while runs follow each other cannot chase each other.
   */
  apply(retryPartial = false): Promise<ProvisioningRun> {
    if (this.running) {
      this.nextRetriesPartial ||= retryPartial;
      // After the current run, whether it worked or not (its own caller hears how it ended).
      this.next ??= this.running.then(noop, noop).then(() => {
        const retry = this.nextRetriesPartial;
        this.next = null;
        this.nextRetriesPartial = false;
        return this.closed && this.last ? this.last : this.apply(retry);
      });
      return this.next;
    }
    this.running = this.run(retryPartial).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private soon() {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.apply();
    }, SETTLE_MS);
  }

  /** Called when an account is created: a dashboard may have waited for that owner or member. */
  async accountCreated(): Promise<void> {
    if (this.last && this.last.problems.length > 0) await this.apply(true);
  }

  private async run(retryPartial: boolean): Promise<ProvisioningRun> {
    const { dir, env, integrations, db, changes, log } = this.deps;
    const files = await readProvisioning(dir, env);
    const problems = [...files.problems];
    const result: ProvisioningRun = {
      dashboards: { created: 0, updated: 0, unchanged: 0, pending: 0, removed: 0 },
      integrations: { created: 0, updated: 0, unchanged: 0, removed: 0 },
      problems,
    };
    const owners = await this.ownerIds(files.integrations.flatMap((i) => (i.owner ? [i.owner] : [])));
    for (const entry of files.integrations) {
      let ownerId: string | null = null;
      if (entry.owner) {
        ownerId = owners.get(entry.owner.toLowerCase()) ?? null;
        if (!ownerId) {
          problems.push({
            file: entry.file,
            path: `${entry.at}/owner`,
            message: `no account with the email ${entry.owner}`,
          });
          continue;
        }
      }
      try {
        result.integrations[
          await integrations.provision({ ...entry, ownerId, secrets: entry.secrets ?? {} })
        ]++;
      } catch (error) {
        if (!(error instanceof ProblemError)) throw error;
        const listed = error.extra.errors ?? [];
        if (listed.length === 0) problems.push({ file: entry.file, path: entry.at, message: error.detail });
        for (const e of listed)
          problems.push({ file: entry.file, path: `${entry.at}${e.path}`, message: e.message });
      }
    }
    if (files.complete)
      result.integrations.removed = await integrations.removeProvisionedBut(
        files.integrations.map((i) => i.key),
      );
    const integrationIds = await integrations.provisionedIds();
    for (const spec of files.dashboards) {
      try {
        result.dashboards[
          await applyDashboard(
            {
              db,
              changes,
              integrationIds,
              problems,
              retryPartial,
              announceAccess: (ids, access) => announceAccess(this.deps.bus, log, ids, access),
            },
            spec,
          )
        ]++;
      } catch (error) {
        if (!(error instanceof ProblemError)) throw error;
        problems.push({ file: spec.file, path: "/", message: error.detail });
      }
    }
    if (files.complete)
      result.dashboards.removed = await removeDashboardsBut(
        db,
        changes,
        files.dashboards.map((d) => d.key),
      );
    for (const problem of problems)
      log.warn(
        { file: problem.file, path: problem.path },
        `provisioning: ${problem.file} ${problem.path}: ${problem.message}`,
      );
    log.info({ dashboards: result.dashboards, integrations: result.integrations }, "provisioning applied");
    this.last = result;
    for (const listener of this.listeners) listener(result);
    return result;
  }

  private async ownerIds(emails: string[]): Promise<Map<string, string>> {
    if (emails.length === 0) return new Map();
    const rows = await this.deps.db
      .select({ id: user.id, email: user.email })
      .from(user)
      .where(
        inArray(
          sql`lower(${user.email})`,
          emails.map((e) => e.toLowerCase()),
        ),
      )
      .orderBy(asc(user.createdAt));
    return new Map(rows.map((r) => [r.email.toLowerCase(), r.id]));
  }

  async close() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.watcher?.close();
    await this.running?.catch(() => {});
  }
}
