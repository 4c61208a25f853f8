import type { FastifyBaseLogger } from "fastify";
import type {
  InstanceSettings,
  SettingSource,
  UpdateInstanceSettings,
} from "../../contract/instance-settings.js";
import type { Config, SignupMode } from "../config.js";
import type { DashboardChanges } from "../db/changes.js";
import type { Db } from "../db/client.js";
import { badRequest, setByEnvironment } from "../http/errors.js";
import type { UserActor } from "../policies/actor.js";
import type { EventBus } from "../realtime/bus.js";
import { listDashboards } from "../resources/dashboards/queries.js";
import { type AllowList, allowEntryProblem, parseAllowList } from "../upstream/address-guard.js";
import { copyStarterDashboard, dashboardName } from "./starter.js";
import { readStored, type SettingName, type StoredSettings, writeStored } from "./store.js";

/** Internal bus channel on which an instance that saved settings tells every other to read them again. */
const CHANGED_CHANNEL = "internal:instance-settings";
/**
 * How long read settings are used before they are read again. A save reaches every instance over
 * the bus at once; this only bounds how stale an instance can be when a bus message was lost
 * (Redis restarting), so it can be long next to a request and short next to a person.
 */
const STALE_AFTER_MS = 10_000;

/** The settings in force, each with where its value comes from. */
export interface EffectiveSettings {
  signupMode: SignupMode;
  privateNetworks: readonly string[];
  starterDashboard: string | null;
  sources: Record<SettingName, SettingSource>;
}

interface Snapshot {
  settings: EffectiveSettings;
  allow: AllowList;
  loadedAt: number;
}

const VARIABLES = {
  signupMode: "SIGNUP_MODE",
  privateNetworks: "FETCH_ALLOW_PRIVATE",
  starterDashboard: null,
};

/** Lower-cased, trimmed, each once, in the order given: the list as the guard reads it. */
const normalized = (entries: readonly string[]) => [
  ...new Set(entries.map((entry) => entry.trim().toLowerCase())),
];
const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((entry, i) => entry === b[i]);

/**
 * Instance settings (admin page): what the environment sets wins, else what an admin chose, else
 * the default. Every instance keeps the settings in memory, so the address guard can read them on
 * each connection; a save tells every instance through the bus to read them again, and they are
 * read again anyway once STALE_AFTER_MS old. Who may sign up is decided on a fresh read.
 */
export class InstanceSettingsService {
  private snapshot: Snapshot;
  /** Loads are numbered, so one that started earlier never replaces what a later one read. */
  private loadsStarted = 0;
  private loadApplied = 0;
  private refreshing: Promise<Snapshot> | null = null;
  private log: FastifyBaseLogger | null = null;
  private stopped = false;
  private readonly cleanups: (() => void)[] = [];
  private heard!: () => void;
  /** Settles once this instance listens for other instances' saves (or could not): for tests. */
  readonly listening = new Promise<void>((resolve) => {
    this.heard = resolve;
  });

  constructor(
    private readonly deps: {
      db: Db;
      bus: EventBus;
      config: Config;
      clock: () => number;
      changes: DashboardChanges;
    },
  ) {
    this.snapshot = this.snapshotOf({}, Number.NEGATIVE_INFINITY);
  }

  /** The environment's values as they apply before anything was read (and whenever nothing is stored). */
  private get environment() {
    const { access, upstream } = this.deps.config;
    return {
      signupMode: access.signupMode,
      privateNetworks: upstream.allowPrivate.length > 0 ? normalized(upstream.allowPrivate) : null,
    };
  }

  private snapshotOf(stored: StoredSettings, loadedAt: number): Snapshot {
    const env = this.environment;
    const source = (fromEnv: unknown, chosen: unknown): SettingSource =>
      fromEnv !== null ? "environment" : chosen !== undefined ? "admin" : "default";
    const settings: EffectiveSettings = {
      signupMode: env.signupMode ?? stored.signupMode ?? "invite",
      privateNetworks: env.privateNetworks ?? stored.privateNetworks ?? [],
      starterDashboard: stored.starterDashboard ?? null,
      sources: {
        signupMode: source(env.signupMode, stored.signupMode),
        privateNetworks: source(env.privateNetworks, stored.privateNetworks),
        starterDashboard: source(null, stored.starterDashboard),
      },
    };
    return { settings, allow: parseAllowList(settings.privateNetworks), loadedAt };
  }

  /**
   * Reads the settings before the app serves, then listens for saves on other instances. The
   * subscription is not waited for: a bus whose backend is down must not keep the app from
   * serving; meanwhile settings are read again every STALE_AFTER_MS.
   */
  async start(log: FastifyBaseLogger) {
    this.log = log;
    await this.load();
    this.deps.bus
      .subscribe(CHANGED_CHANNEL, () => this.reloadQuietly())
      .then(
        (unsubscribe) => {
          if (this.stopped) unsubscribe();
          else this.cleanups.push(unsubscribe);
        },
        () => {},
      )
      .finally(() => this.heard());
    // Saves published while the bus was away are lost: read what is stored now.
    const offResync = this.deps.bus.onResync?.(() => this.reloadQuietly());
    if (offResync) this.cleanups.push(offResync);
  }

  stop() {
    this.stopped = true;
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }

  /** Reads the stored settings now; a load that started later and finished first is kept. */
  private async load(): Promise<Snapshot> {
    const number = ++this.loadsStarted;
    const { stored, ignored } = await readStored(this.deps.db);
    if (ignored.length > 0)
      this.log?.warn({ settings: ignored }, "stored instance settings that are not valid were ignored");
    if (number > this.loadApplied) {
      this.loadApplied = number;
      this.snapshot = this.snapshotOf(stored, this.deps.clock());
    }
    return this.snapshot;
  }

  /** A read that joins one already under way: for staleness, not for news of a save. */
  private refresh(): Promise<Snapshot> {
    this.refreshing ??= this.load().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** A save happened somewhere: a new read, never one that may have started before it. */
  private reloadQuietly() {
    this.load().catch((error: unknown) =>
      this.log?.warn({ err: error }, "could not read instance settings after a change"),
    );
  }

  private get stale() {
    return this.deps.clock() - this.snapshot.loadedAt >= STALE_AFTER_MS;
  }

  /** The settings in force, read again when they are old. */
  async current(): Promise<EffectiveSettings> {
    return (this.stale ? await this.refresh() : this.snapshot).settings;
  }

  /** The settings as stored this moment: for deciding who may create an account. */
  async fresh(): Promise<EffectiveSettings> {
    return (await this.load()).settings;
  }

  /**
   * The private hosts and networks user-given URLs may reach, for the address guard, which asks
   * on every connection and cannot wait: what was read last, with a new read started when it is old.
   */
  allowList(): AllowList {
    if (this.stale)
      this.refresh().catch((error: unknown) =>
        this.log?.warn({ err: error }, "could not read instance settings; the last ones stay in force"),
      );
    return this.snapshot.allow;
  }

  /** The admin page's view: each setting's value, where it comes from and whether it may change. */
  async view(): Promise<InstanceSettings> {
    const settings = await this.fresh();
    const field = <T>(name: SettingName, value: T) => ({
      value,
      source: settings.sources[name],
      editable: settings.sources[name] !== "environment",
      variable: VARIABLES[name],
    });
    const starter = settings.starterDashboard;
    // A deleted starting dashboard is no choice any more: shown, and applied, as none.
    const name = starter ? await dashboardName(this.deps.db, starter) : null;
    return {
      signupMode: field("signupMode", settings.signupMode),
      privateNetworks: field("privateNetworks", [...settings.privateNetworks]),
      starterDashboard: { ...field("starterDashboard", name === null ? null : starter), name },
    };
  }

  /**
   * Saves what an admin changed, all or nothing: every bad value is a 400 naming its path, a
   * setting its environment variable sets is a 409 (sending the value it already has changes
   * nothing and is fine). Then every instance is told.
   */
  async update(patch: UpdateInstanceSettings, admin: UserActor): Promise<void> {
    const env = this.environment;
    const errors: { path: string; message: string }[] = [];
    const fixed: { path: string; message: string }[] = [];
    const changes: { [K in SettingName]?: StoredSettings[K] | null } = {};

    if (patch.signupMode !== undefined) {
      if (env.signupMode === null) changes.signupMode = patch.signupMode;
      else if (patch.signupMode !== env.signupMode)
        fixed.push({ path: "/signupMode", message: "is set by SIGNUP_MODE in the server's environment" });
    }
    if (patch.privateNetworks !== undefined) {
      patch.privateNetworks.forEach((entry, index) => {
        const problem = allowEntryProblem(entry);
        if (problem) errors.push({ path: `/privateNetworks/${index}`, message: `"${entry}" ${problem}` });
      });
      const list = normalized(patch.privateNetworks);
      if (env.privateNetworks === null) changes.privateNetworks = list;
      else if (!sameList(list, env.privateNetworks))
        fixed.push({
          path: "/privateNetworks",
          message: "is set by FETCH_ALLOW_PRIVATE in the server's environment",
        });
    }
    if (patch.starterDashboard !== undefined) {
      const id = patch.starterDashboard;
      if (id !== null && (await listDashboards(this.deps.db, admin, id)).length === 0)
        errors.push({ path: "/starterDashboard", message: "must be a dashboard you can open" });
      changes.starterDashboard = id;
    }

    if (errors.length > 0)
      throw badRequest(
        `The settings have ${errors.length} problem${errors.length === 1 ? "" : "s"}; nothing was saved`,
        errors,
      );
    if (fixed.length > 0)
      throw setByEnvironment(
        `The server's environment sets ${fixed.map((f) => f.path.slice(1)).join(" and ")}, and it wins: change it there and restart. Nothing was saved.`,
        fixed,
      );

    await writeStored(this.deps.db, changes, admin.user.id);
    await this.load();
    // Saved: an instance that misses the news reads it within STALE_AFTER_MS anyway.
    await this.deps.bus
      .publish(CHANGED_CHANNEL, { event: "instance-settings.changed" })
      .catch((error: unknown) =>
        this.log?.warn({ err: error }, "could not tell other instances of changed instance settings"),
      );
  }

  /**
   * Runs once a new account exists: its copy of the starting dashboard, if there is one. A failure
   * is logged and the account stays as it is: an empty start is better than a failed sign-up.
   */
  async welcome(userId: string): Promise<void> {
    try {
      const { starterDashboard } = await this.fresh();
      if (!starterDashboard) return;
      const copy = await copyStarterDashboard(
        this.deps.db,
        this.deps.changes,
        starterDashboard,
        userId,
        new Date(this.deps.clock()),
      );
      if (copy === null)
        this.log?.warn({ userId, dashboardId: starterDashboard }, "the starting dashboard no longer exists");
    } catch (error) {
      this.log?.error(
        { err: error, userId },
        "could not copy the starting dashboard into a new account; it starts empty",
      );
    }
  }
}
