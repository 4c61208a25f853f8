import type { JobQueue } from "./queue.js";

/**
 * Creates a queue's workers on a started queue (each feature registers its own); may answer what
 * stops its own timers, called before the queue stops.
 */
export type WorkerStarter = (queue: JobQueue) => Promise<unknown>;

/**
 * The shared job queue as the app holds it: started on demand, once, with every registered worker.
 *
 * On PostgreSQL it starts with the app: another instance may have sent jobs this one must be able
 * to take over (a `kill -9` of their holder). The embedded database has one process, so there the
 * queue starts only when there is work: at boot if jobs are pending or a widget is watched, else at
 * the first write that schedules one. An instance whose widgets ask for no alert runs no poller and
 * pays no memory for the queue (pg-boss and its schema cost ~25 MiB of resident memory).
 */
export class Jobs {
  private starting: Promise<JobQueue> | null = null;
  private started: JobQueue | null = null;
  private readonly workers: WorkerStarter[] = [];
  private stoppers: (() => void)[] = [];

  constructor(
    private readonly open: () => Promise<JobQueue>,
    private readonly failed: (error: unknown) => void,
  ) {}

  /** Registers a worker, started with the queue (register before the first `ensure`). */
  addWorker(start: WorkerStarter) {
    this.workers.push(start);
  }

  /** The queue if it is up; null while it is not (yet) needed. */
  get current(): JobQueue | null {
    return this.started;
  }

  /** Starts the queue and its workers (once; a failed start is tried again by the next caller). */
  ensure(): Promise<JobQueue> {
    if (!this.starting) {
      const starting = (async () => {
        const queue = await this.open();
        try {
          for (const start of this.workers) {
            const stop = await start(queue);
            if (typeof stop === "function") this.stoppers.push(stop as () => void);
          }
        } catch (error) {
          this.stopTimers();
          await queue.stop().catch(() => {});
          throw error;
        }
        this.started = queue;
        return queue;
      })();
      this.starting = starting;
      starting.catch((error) => {
        this.failed(error);
        if (this.starting === starting) this.starting = null;
      });
    }
    return this.starting;
  }

  async stop() {
    const starting = this.starting;
    this.starting = null;
    this.started = null;
    const queue = await starting?.catch(() => null);
    this.stopTimers();
    await queue?.stop();
  }

  private stopTimers() {
    for (const stop of this.stoppers.splice(0)) stop();
  }
}
