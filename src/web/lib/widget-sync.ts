import type { UpdateWidgetInput, Widget } from "../../contract/resources";
import type { PatchOperation } from "../../contract/widget-patch";
import type { SaveBody } from "../grid/saver";
import { ApiError, type RequestOptions } from "./api";
import { conflictCurrent, mergeWidget, patchedConfig, underConfig } from "./live-sync";

/**
 * Keeps what a tab shows of a widget in step with the server while others edit the same
 * dashboard (DESIGN section 14, "no lost updates").
 *
 * The cache shows a widget as the server has it plus this tab's changes not confirmed yet: edits
 * the saver is still to send (moves, whole configs), and JSON Patch operations on their way
 * (a ticked to-do). For a widget with such changes it remembers the server's newest version
 * (`server`) and the patches (`patches`); when a newer version arrives (someone else's change,
 * a save's answer, the stored record a stale write was refused with) the tab's own changes are
 * drawn again on top of it (live-sync.ts `mergeWidget`). A widget without changes of this tab
 * simply takes the newer version.
 *
 * Writes of one widget go out one after another, so every one names the revision the one before
 * it produced; a saver write names the revision it was made on and, refused as stale, is merged
 * onto the stored record and sent again (a move: the later move wins; nothing else is undone).
 */

/** How often a write refused as stale is merged and sent again before the stored record is shown instead. */
const ATTEMPTS = 4;

/** A change said as operations on a config (paths inside it); null when it cannot be. */
export type PatchBuilder = (config: Record<string, unknown>) => PatchOperation[] | null;

interface PendingPatch {
  /** Paths inside the config ("/todos/3/done"). */
  ops: PatchOperation[];
}

interface Tracked {
  dashboardId: string;
  /** The newest version of the widget the server answered or announced. */
  server: Widget;
  /** This tab's patches not answered yet, in the order they were made. */
  patches: PendingPatch[];
}

export interface SyncDeps {
  /** The widget as this tab shows it (the query cache). */
  read(dashboardId: string, id: string): Widget | undefined;
  /** Replaces the widget the tab shows by `next(shown)` (added when the list lacks it; undefined: no change). */
  write(dashboardId: string, id: string, next: (shown: Widget | undefined) => Widget | undefined): void;
  /** The saver holds a change of the widget (waiting or on its way). */
  hasPendingSave(id: string): boolean;
  /** Hands the widget's config, as shown, to the saver: it sends it whole and retries with back-off. */
  queueSave(id: string, config: Record<string, unknown>): void;
  put(body: UpdateWidgetInput, options: RequestOptions): Promise<Widget>;
  patch(body: { id: string; ops: PatchOperation[] }): Promise<Widget>;
  /** The server refused a patch for good (invalid, not allowed): it was taken back. */
  onRefused(error: unknown): void;
  /** A write outside the saver starts (+1) or ends (-1), for the dashboard's "Saving…". */
  onBusy?(delta: 1 | -1): void;
}

const geometryOf = (w: Widget) => ({
  positionX: w.positionX,
  positionY: w.positionY,
  width: w.width,
  height: w.height,
});

/** A failure worth trying again later (offline, server trouble, signed out, rate limited). */
function isTransient(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 0 || error.status >= 500 || error.status === 401 || error.status === 429;
}

export class WidgetSync {
  private readonly tracked = new Map<string, Tracked>();
  private readonly chains = new Map<string, Promise<void>>();
  /** The revision this tab's latest write of each widget produced. */
  private readonly written = new Map<string, number>();
  /** Widgets removed here or elsewhere: news of them arriving late does not bring them back. */
  private readonly gone = new Set<string>();

  constructor(private readonly deps: SyncDeps) {}

  /**
   * Before a local change of `widget` (as shown now): remembers the server version it is made on.
   * With nothing of this tab's under way, what the tab shows is the server's version.
   */
  track(widget: Widget): void {
    if (this.tracked.has(widget.id) && !this.isIdle(widget.id)) return;
    this.tracked.set(widget.id, { dashboardId: widget.dashboardId, server: widget, patches: [] });
  }

  /** The widget is gone (removed here or by someone else): nothing of it is kept. */
  forget(id: string): void {
    this.tracked.delete(id);
    this.written.delete(id);
    this.gone.add(id);
  }

  /** A removal the server refused: the widget is back. */
  revive(id: string): void {
    this.gone.delete(id);
  }

  isGone(id: string): boolean {
    return this.gone.has(id);
  }

  /** The revision this tab's latest write of the widget produced (not someone else's), if any. */
  wrote(id: string): number | undefined {
    return this.written.get(id);
  }

  /** This tab's write was answered: the version it produced. */
  private own(saved: Widget): Widget {
    this.written.set(saved.id, Math.max(saved.revision, this.written.get(saved.id) ?? 0));
    return saved;
  }

  /** A version of the widget from the server: someone else's change, an answer, a refetch. */
  receive(remote: Widget): void {
    if (this.gone.has(remote.id)) return;
    const tracked = this.tracked.get(remote.id);
    if (tracked && !this.isIdle(remote.id)) {
      if (remote.revision > tracked.server.revision)
        this.redraw(tracked, remote.id, (t) => (t.server = remote));
      return;
    }
    this.tracked.delete(remote.id);
    this.deps.write(remote.dashboardId, remote.id, (shown) =>
      !shown || shown.revision < remote.revision ? remote : undefined,
    );
  }

  /** The saver's send: this tab's changes of the widget, as shown now, on the newest server version. */
  save(body: SaveBody, options: RequestOptions): Promise<void> {
    return this.enqueue(body.id, async () => {
      for (let attempt = 1; ; attempt++) {
        const tracked = this.tracked.get(body.id);
        if (!tracked) {
          await this.deps.put(body, options);
          return;
        }
        const shown = this.deps.read(tracked.dashboardId, body.id);
        if (!shown) return;
        // This tab's edits on the server's version, without its patches still to go (they travel
        // on their own: sent inside this config too, an added to-do would be added twice).
        const target = mergeWidget(this.shadow(tracked), shown, tracked.server);
        const input: UpdateWidgetInput = { id: body.id, revision: tracked.server.revision };
        if (body.positionX !== undefined || body.width !== undefined)
          Object.assign(input, geometryOf(target));
        if (body.config !== undefined) input.config = target.config;
        try {
          this.receive(this.own(await this.deps.put(input, options)));
          return;
        } catch (error) {
          const current = conflictCurrent(error);
          if (!current) throw error;
          // Someone saved first: theirs is the new base, this tab's change goes on top of it.
          this.receive(current);
          if (attempt >= ATTEMPTS) {
            this.deps.write(tracked.dashboardId, body.id, () => this.shadow(tracked));
            return;
          }
        }
      }
    });
  }

  /**
   * A change sent as JSON Patch: drawn at once, applied by the server to what it stores then, so
   * someone else's change to another part of the config survives. `build` says the change as
   * operations on a config (paths inside it), or [] when there is nothing to do; asked again on
   * the stored config when the server refused the first operations (a failed `test`); null when
   * it cannot be said as operations. False then (the caller saves the whole config instead).
   */
  patch(dashboardId: string, id: string, build: PatchBuilder): boolean {
    const shown = this.deps.read(dashboardId, id);
    if (!shown) return true;
    const ops = build(shown.config);
    if (ops === null) return false;
    if (ops.length === 0) return true;
    if (!this.draw(shown, ops)) return false;
    const tracked = this.tracked.get(id)!;
    const entry = tracked.patches[tracked.patches.length - 1]!;
    this.deps.onBusy?.(1);
    void this.enqueue(id, () => this.sendPatch(tracked, id, entry, build))
      .catch(() => {})
      .finally(() => this.deps.onBusy?.(-1));
    return true;
  }

  /** The settings dialog's save: the whole config, made on `revision` (a stale one is refused, 409). */
  saveConfig(widget: Widget, config: Record<string, unknown>, revision: number): Promise<Widget> {
    const { dashboardId, id } = widget;
    // Drawn at once, as every change is; taken back if the server does not take it.
    const before = this.deps.read(dashboardId, id);
    if (before) {
      this.track(before);
      this.deps.write(dashboardId, id, (w) => w && { ...w, config });
    }
    this.deps.onBusy?.(1);
    const saved = this.enqueue(id, async () => {
      try {
        const saved = this.own(await this.deps.put({ id, config, revision }, {}));
        this.receive(saved);
        return saved;
      } catch (error) {
        // Refused as stale, the widget shows what is stored (the dialog asks what to do);
        // refused otherwise, what it showed before.
        const current = conflictCurrent(error);
        if (current) this.receive(current);
        const shown = current ?? before;
        if (shown) this.deps.write(dashboardId, id, (w) => w && { ...w, config: shown.config });
        throw error;
      }
    });
    void saved.then(
      () => this.deps.onBusy?.(-1),
      () => this.deps.onBusy?.(-1),
    );
    return saved;
  }

  /** Draws `ops` on the widget as shown and keeps them as on their way; false when they do not apply. */
  private draw(shown: Widget, ops: PatchOperation[]): boolean {
    const config = patchedConfig(shown.config, ops);
    if (!config) return false;
    this.track(shown);
    this.tracked.get(shown.id)!.patches.push({ ops });
    this.deps.write(shown.dashboardId, shown.id, (w) => w && { ...w, config });
    return true;
  }

  private async sendPatch(
    tracked: Tracked,
    id: string,
    first: PendingPatch,
    build: PatchBuilder,
  ): Promise<void> {
    let entry = first;
    for (let attempt = 1; ; attempt++) {
      try {
        const saved = this.own(await this.deps.patch({ id, ops: underConfig(entry.ops) }));
        this.settle(tracked, id, entry, saved);
        return;
      } catch (error) {
        const current = conflictCurrent(error);
        if (current) {
          // The place it named moved (someone added or removed an item first): the same change,
          // said again on the stored config; nothing when it no longer applies.
          this.settle(tracked, id, entry, current);
          const shown = this.deps.read(tracked.dashboardId, id);
          const ops = shown && attempt < ATTEMPTS ? build(shown.config) : null;
          if (!shown || !ops || ops.length === 0 || !this.draw(shown, ops)) return;
          entry = this.tracked.get(id)!.patches.at(-1)!;
          tracked = this.tracked.get(id)!;
          continue;
        }
        if (isTransient(error)) {
          // Kept as the tab's own edit (still drawn): the saver sends the config and retries.
          tracked.patches = tracked.patches.filter((p) => p !== entry);
          const shown = this.deps.read(tracked.dashboardId, id);
          if (shown) this.deps.queueSave(id, shown.config);
          return;
        }
        this.settle(tracked, id, entry, null);
        if (!(error instanceof ApiError && error.status === 404)) this.deps.onRefused(error);
        return;
      }
    }
  }

  /** A patch was answered (`server`: the widget as stored after it, or as it refused it): drawn from the answer. */
  private settle(tracked: Tracked, id: string, entry: PendingPatch, server: Widget | null) {
    this.redraw(tracked, id, (t) => {
      t.patches = t.patches.filter((p) => p !== entry);
      if (server && server.revision > t.server.revision) t.server = server;
    });
  }

  /** The server's version with this tab's patches still on their way drawn on it. */
  private shadow(tracked: Tracked): Widget {
    let config = tracked.server.config;
    for (const patch of tracked.patches) config = patchedConfig(config, patch.ops) ?? config;
    return { ...tracked.server, config };
  }

  /** Changes what is known of the server, and redraws the widget: this tab's edits stay on top. */
  private redraw(tracked: Tracked, id: string, change: (tracked: Tracked) => void) {
    const before = this.shadow(tracked);
    change(tracked);
    const after = this.shadow(tracked);
    this.deps.write(tracked.dashboardId, id, (shown) => shown && mergeWidget(before, shown, after));
  }

  private isIdle(id: string): boolean {
    const tracked = this.tracked.get(id);
    return (
      !tracked || (tracked.patches.length === 0 && !this.chains.has(id) && !this.deps.hasPendingSave(id))
    );
  }

  /** Runs `job` after the widget's writes before it, whatever became of them. */
  private enqueue<T>(id: string, job: () => Promise<T>): Promise<T> {
    const before = this.chains.get(id) ?? Promise.resolve();
    const run = before.then(job);
    const done = run.then(
      () => {},
      () => {},
    );
    this.chains.set(id, done);
    void done.then(() => {
      if (this.chains.get(id) === done) this.chains.delete(id);
    });
    return run;
  }
}
