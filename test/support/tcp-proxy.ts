import { once } from "node:events";
import net from "node:net";

/**
 * A TCP proxy in front of a real service (Redis here), so a test can take the service away from
 * one app instance and bring it back, without touching the service others share.
 * `rewrite(chunk)` may change what a client sends before the service sees it. The proxy never
 * answers for the service: a reply of its own could overtake replies still on their way from the
 * service to commands sent before, and the client would match every later reply to the wrong command.
 */
export class TcpProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(
    private readonly target: { host: string; port: number },
    private readonly rewrite: (chunk: Buffer) => Buffer = (chunk) => chunk,
  ) {}

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start() {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => {});
      }
      client.on("data", (chunk) => upstream.write(this.rewrite(chunk)));
      upstream.pipe(client);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
    server.listen(this.port, "127.0.0.1");
    await once(server, "listening");
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  /** The service goes away: no more connections, and the open ones are cut. */
  async stop() {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}
