import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A local site a Status widget checks: answers `status` (HEAD refused with 405 when asked), can go down. */
export interface StatusSite {
  url: string;
  /** Method and path of every request that reached it. */
  requests: string[];
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
    status,
    async start() {
      const listening = createServer((req, res) => {
        site.requests.push(`${req.method} ${req.url}`);
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
