import { Worker } from "node:worker_threads";
import { HOT_READ_CACHE_BYTES } from "../bounded-cache.js";
import type { EngineOptions } from "./engine.js";
import { bundledWorkerEntry } from "./from-source.js";
import {
  deserializeError,
  type Envelope,
  type HostRequest,
  type QueryResult,
  type Reply,
  type SerializedError,
} from "./protocol.js";
import { ReadCache } from "./read-cache.js";

export type EngineThread = "worker" | "main";

interface QueryOptions {
  rowMode?: "array" | "object";
  parsers?: Record<number, unknown>;
}

interface Transport {
  call(request: HostRequest): Promise<unknown>;
  stop(): Promise<void>;
  /** Requests sent to the engine and not answered yet: running, or waiting their turn. */
  inFlight(): number;
}

/**
 * The embedded database as seen from the server: the subset of PGlite's client that Drizzle's
 * PGlite driver uses (query, transaction), plus prepared reads and migrations. The engine itself
 * runs in a worker thread by default; "main" keeps it on the event loop (measured, not advised).
 */
export class EmbeddedClient {
  private constructor(
    private readonly transport: Transport,
    private readonly cache: ReadCache | null,
  ) {}

  static async open(
    options: EngineOptions & { thread: EngineThread; readCache: boolean },
  ): Promise<EmbeddedClient> {
    const { thread, readCache, ...engine } = options;
    return new EmbeddedClient(
      thread === "worker" ? startWorker(engine) : await inline(engine),
      readCache ? new ReadCache(HOT_READ_CACHE_BYTES) : null,
    );
  }

  query<T = Record<string, unknown>>(
    text: string,
    params: unknown[] = [],
    options: QueryOptions = {},
    tx: number | null = null,
  ): Promise<QueryResult & { rows: T[] }> {
    if (this.cache && (tx !== null || ReadCache.isWrite(text))) this.cache.written();
    return this.transport.call({
      op: "query",
      text,
      params,
      rowMode: options.rowMode ?? "object",
      // Drizzle's parsers only keep date and interval types as text; the engine does the same.
      rawTypes: options.parsers ? Object.keys(options.parsers).map(Number) : [],
      tx,
    }) as Promise<QueryResult & { rows: T[] }>;
  }

  /**
   * Runs `callback` in one transaction pinned to the engine's single session: the callback's
   * statements carry its id, and any other statement waits until it ends (as PGlite does in-process).
   */
  async transaction<T>(callback: (tx: TransactionClient) => Promise<T>): Promise<T> {
    this.cache?.written();
    const id = (await this.transport.call({ op: "begin" })) as number;
    const tx: TransactionClient = {
      query: (text, params, options) => this.query(text, params, options, id),
      closed: false,
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      tx.closed = true;
      await this.transport.call({ op: "end", tx: id, commit: false });
      throw error;
    }
    tx.closed = true;
    await this.transport.call({ op: "end", tx: id, commit: true });
    this.cache?.written();
    return result;
  }

  /** A named read: answered from the read cache while nothing was written, else by the engine. */
  prepared<T>(name: string, text: string, params: unknown[]): Promise<T[]> {
    const load = () => this.transport.call({ op: "prepared", name, text, params }) as Promise<T[]>;
    return this.cache ? this.cache.read(`${name}\u0000${JSON.stringify(params)}`, load) : load();
  }

  /**
   * A statement on tables the read cache never holds (the job queue's own schema): it leaves the
   * cache alone, so the queue's polling does not empty it twice a second.
   */
  queryOutsideCache<T = Record<string, unknown>>(text: string, params: unknown[] = []) {
    return this.transport.call({
      op: "query",
      text,
      params,
      rowMode: "object",
      rawTypes: [],
      tx: null,
    }) as Promise<QueryResult & { rows: T[] }>;
  }

  /**
   * Statements without parameters, possibly several with their own BEGIN/COMMIT (the job queue's
   * maintenance blocks): one message, run whole on the session; the rows of all of them.
   */
  /** Statements sent to the engine's thread and not answered yet (the metrics' database waits). */
  inFlight(): number {
    return this.transport.inFlight();
  }

  exec(text: string): Promise<unknown[]> {
    return this.transport.call({ op: "exec", text }) as Promise<unknown[]>;
  }

  async migrate(folder: string) {
    this.cache?.written();
    await this.transport.call({ op: "migrate", folder });
    this.cache?.written();
  }

  async close() {
    await this.transport.call({ op: "close" });
    await this.transport.stop();
  }
}

export interface TransactionClient {
  query<T = Record<string, unknown>>(
    text: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult & { rows: T[] }>;
  closed: boolean;
}

async function inline(engine: EngineOptions): Promise<Transport> {
  const [{ openEngine }, { createHost }] = await Promise.all([import("./engine.js"), import("./host.js")]);
  const host = createHost(await openEngine(engine));
  let inFlight = 0;
  return {
    call: async (request) => {
      inFlight++;
      try {
        return await host.handle(request);
      } finally {
        inFlight--;
      }
    },
    stop: async () => {},
    inFlight: () => inFlight,
  };
}

/** The worker's own file next to this one once built; bundled on the fly when run from source. */
function workerEntry(): URL {
  const here = import.meta.url;
  if (here.endsWith(".js")) return new URL("./pglite-worker.js", here);
  return bundledWorkerEntry(new URL("./worker.ts", here));
}

function startWorker(engine: EngineOptions): Transport {
  // No inherited Node options: a test runner's or dev loader's hooks would see every import of the thread.
  const worker = new Worker(workerEntry(), { workerData: engine, execArgv: [] });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  let failure: Error | null = null;

  const failAll = (error: Error) => {
    failure = error;
    for (const entry of pending.values()) entry.reject(error);
    pending.clear();
  };

  // Requests are posted at once: the thread's port holds them until the engine is open, so the
  // server goes on loading while PGlite starts.
  worker.on("message", (message: Reply | { ready: boolean; error?: SerializedError }) => {
    if ("ready" in message) {
      if (!message.ready) {
        failAll(deserializeError(message.error!));
        // The thread listens for requests it can no longer answer, and a request that was in
        // flight left it ref'd: it would keep the process alive after the failure was reported.
        void worker.terminate();
      }
      return;
    }
    const entry = pending.get(message.id);
    if (!entry) return;
    pending.delete(message.id);
    if (pending.size === 0) worker.unref();
    if (message.ok) entry.resolve(message.result);
    else entry.reject(deserializeError(message.error));
  });
  worker.on("error", (error) => failAll(error));
  worker.on("exit", (code) => failAll(new Error(`the embedded database thread exited (${code})`)));
  // Idle, the thread does not keep the process alive; a request in flight does.
  worker.unref();

  return {
    call(request) {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      if (pending.size === 0) worker.ref();
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, request } satisfies Envelope);
      });
    },
    async stop() {
      await worker.terminate();
    },
    inFlight: () => pending.size,
  };
}
