import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A local site a Status widget checks: answers `status` (HEAD refused with 405 when asked), can go down. */
export interface StatusSite {
  url: string;
  /** Method and path of every request that reached it. */
  requests: string[];
  /** When each of them arrived (Date.now()), for measuring how often a target is checked. */
  times: number[];
  status: number;
  /** Closes the listener and its open connections: the next check finds nothing there. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

export async function startStatusSite(status: number, options: { refuseHead?: boolean } = {}) {
  let server: Server | null = null;
  let port = 0;
  const site: StatusSite = {
    url: "",
    requests: [],
    times: [],
    status,
    async start() {
      const listening = createServer((req, res) => {
        site.requests.push(`${req.method} ${req.url}`);
        site.times.push(Date.now());
        res.statusCode = options.refuseHead && req.method === "HEAD" ? 405 : site.status;
        res.end(req.method === "HEAD" ? undefined : "a body the check never keeps");
      });
      await new Promise<void>((resolve) => listening.listen(port, "127.0.0.1", resolve));
      port = (listening.address() as AddressInfo).port;
      site.url = `http://127.0.0.1:${port}/`;
      server = listening;
    },
    async stop() {
      const closing = server;
      server = null;
      if (!closing) return;
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
  };
  await site.start();
  return site;
}

/**
 * A site slower than any deadline (the slow-target attack): it takes every request and answers
 * none of them until `release()`. Tests wait on its log (`received`), never on a timer.
 */
export interface HangingSite {
  /** Its root; targets are `${url}<anything>`, each path a distinct address. */
  url: string;
  /** Method and path of every request that reached it, in arrival order. */
  requests: string[];
  /** Requests held unanswered right now (a check that gave up closes its own). */
  held: number;
  /** The most it held at once. */
  mostHeld: number;
  /** Resolves once `count` requests have reached it in all. */
  received(count: number): Promise<void>;
  /** Answers 200 to what it holds, and to every later request at once. */
  release(): void;
  stop(): Promise<void>;
}

export async function startHangingSite(): Promise<HangingSite> {
  const holding = new Set<ServerResponse>();
  const waiters: { count: number; wake: () => void }[] = [];
  let released = false;
  const answer = (res: ServerResponse) => {
    res.statusCode = 200;
    res.end();
  };
  const server = createServer((req, res) => {
    site.requests.push(`${req.method} ${req.url}`);
    for (const waiter of waiters.filter((w) => site.requests.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.wake();
    }
    if (released) return answer(res);
    holding.add(res);
    site.held = holding.size;
    site.mostHeld = Math.max(site.mostHeld, site.held);
    res.on("close", () => {
      holding.delete(res);
      site.held = holding.size;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const site: HangingSite = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests: [],
    held: 0,
    mostHeld: 0,
    received: (count) =>
      new Promise<void>((resolve) => {
        if (site.requests.length >= count) resolve();
        else waiters.push({ count, wake: resolve });
      }),
    release() {
      released = true;
      for (const res of holding) answer(res);
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return site;
}
