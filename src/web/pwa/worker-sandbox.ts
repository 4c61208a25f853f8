import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

/**
 * The real src/web/public/sw.js, run in a sandbox standing in for a ServiceWorkerGlobalScope:
 * in-memory caches, a network that is up or down, and clients that record what they are told.
 * For the worker's tests only (it reads files, it is never bundled).
 */

export const WORKER_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../public/sw.js");
export const ORIGIN = "https://tessera.example";

type Handler = (event: unknown) => void;

/** One Cache: entries by URL, in the order they were put (a put moves an entry last). */
class MemoryCache {
  readonly entries = new Map<string, Response>();

  private key(request: string | Request) {
    return new URL(typeof request === "string" ? request : request.url, ORIGIN).href;
  }
  async match(request: string | Request) {
    return this.entries.get(this.key(request))?.clone();
  }
  async put(request: string | Request, response: Response) {
    const key = this.key(request);
    this.entries.delete(key);
    this.entries.set(key, response.clone());
  }
  async add(request: string | Request, network: (r: Request) => Promise<Response>) {
    const response = await network(new Request(this.key(request)));
    if (!response.ok) throw new TypeError(`add: ${response.status}`);
    await this.put(request, response);
  }
  async delete(request: string | Request) {
    return this.entries.delete(this.key(request));
  }
  async keys() {
    return [...this.entries.keys()].map((url) => new Request(url));
  }
}

export interface Sandbox {
  /** A global of the worker's script: its functions and constants. */
  global<T = (...args: unknown[]) => unknown>(name: string): T;
  /** Dispatches a fetch as the browser would; answers the worker's response, or "pass". */
  fetch(
    href: string,
    init?: { method?: string; mode?: string; clientId?: string; resultingClientId?: string },
  ): Promise<Response | "pass">;
  /** Dispatches a message from a page. */
  message(data: unknown): Promise<void>;
  /** Runs an install or activate event to its end. */
  lifecycle(type: "install" | "activate"): Promise<void>;
  /** What the worker told each client. */
  told: Map<string, unknown[]>;
  /** Every request the worker sent to the network. */
  networkLog: string[];
  caches: Map<string, MemoryCache>;
  /** The server's answer to each path (default: 404), while `online`. */
  server: Map<string, () => Response>;
  online: boolean;
}

export function workerSandbox(source = readFileSync(WORKER_FILE, "utf8")): Sandbox {
  const handlers = new Map<string, Handler[]>();
  const told = new Map<string, unknown[]>();
  const networkLog: string[] = [];
  const cacheStore = new Map<string, MemoryCache>();
  const server = new Map<string, () => Response>();
  const sandbox = { online: true } as Sandbox;

  const network = async (input: string | Request): Promise<Response> => {
    const request = typeof input === "string" ? new Request(new URL(input, ORIGIN)) : input;
    networkLog.push(`${request.method} ${request.url}`);
    if (!sandbox.online) throw new TypeError("Failed to fetch");
    const answer = server.get(new URL(request.url).pathname + new URL(request.url).search);
    return answer ? answer() : new Response("not found", { status: 404 });
  };
  const open = (name: string) => {
    if (!cacheStore.has(name)) cacheStore.set(name, new MemoryCache());
    return cacheStore.get(name)!;
  };
  const caches = {
    open: async (name: string) => {
      const cache = open(name);
      return Object.assign(Object.create(cache), {
        add: (request: string | Request) => cache.add(request, network),
      });
    },
    delete: async (name: string) => cacheStore.delete(name),
    keys: async () => [...cacheStore.keys()],
    match: async (request: string | Request, options?: { cacheName?: string }) => {
      const names = options?.cacheName ? [options.cacheName] : [...cacheStore.keys()];
      for (const name of names) {
        const hit = await cacheStore.get(name)?.match(request);
        if (hit) return hit;
      }
      return undefined;
    },
  };
  const self = {
    location: new URL(`${ORIGIN}/sw.js`),
    addEventListener(type: string, handler: Handler) {
      handlers.set(type, [...(handlers.get(type) ?? []), handler]);
    },
    skipWaiting: async () => {},
    registration: { showNotification: async () => {} },
    clients: {
      claim: async () => {},
      get: async (id: string) => ({
        postMessage: (message: unknown) => told.set(id, [...(told.get(id) ?? []), message]),
      }),
      matchAll: async () => [],
    },
  };
  /** As in a worker, a relative URL is the worker's origin's. */
  class WorkerRequest extends Request {
    constructor(input: string | Request, init?: RequestInit) {
      super(typeof input === "string" ? new URL(input, ORIGIN) : input, init);
    }
  }
  const context = vm.createContext({
    self,
    caches,
    fetch: network,
    Request: WorkerRequest,
    Response,
    Headers,
    URL,
    Blob,
    console,
    setTimeout,
  });
  vm.runInContext(source, context, { filename: "sw.js" });

  /** Runs an extendable event's handlers, then waits for everything it extended its life with. */
  async function dispatch(type: string, event: Record<string, unknown>) {
    const waits: Promise<unknown>[] = [];
    let response: Promise<Response> | null = null;
    const full = {
      ...event,
      waitUntil: (promise: Promise<unknown>) => waits.push(promise),
      respondWith: (promise: Promise<Response>) => {
        response = Promise.resolve(promise);
      },
    };
    for (const handler of handlers.get(type) ?? []) handler(full);
    const answer = response ? await (response as Promise<Response>).catch((error: Error) => error) : null;
    // The copies are written after the answer: a later request must see them.
    for (let i = 0; i < waits.length; i++) await waits[i];
    // What the worker posts to pages goes out a few promise turns later.
    await new Promise((resolve) => setImmediate(resolve));
    if (answer instanceof Error) throw answer;
    return answer;
  }

  return Object.assign(sandbox, {
    global: (name: string) => vm.runInContext(name, context),
    async fetch(href, init = {}) {
      const request = new Request(new URL(href, ORIGIN), { method: init.method ?? "GET" });
      Object.defineProperty(request, "mode", { value: init.mode ?? "cors" });
      const answer = await dispatch("fetch", {
        request,
        clientId: init.clientId ?? "",
        resultingClientId: init.resultingClientId ?? "",
      });
      return answer ?? "pass";
    },
    async message(data) {
      await dispatch("message", { data });
    },
    async lifecycle(type) {
      await dispatch(type, {});
    },
    told,
    networkLog,
    caches: cacheStore,
    server,
  } satisfies Omit<Sandbox, "online">);
}
