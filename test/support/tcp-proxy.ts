import { once } from "node:events";
import net from "node:net";

/**
 * A TCP proxy in front of a real service (Redis here), so a test can take the service away from
 * one app instance and bring it back, without touching the service others share.
 * `refuse(chunk)` may answer a client chunk itself instead of forwarding it.
 */
export class TcpProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(
    private readonly target: { host: string; port: number },
    private readonly refuse: (chunk: Buffer) => string | null = () => null,
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
      client.on("data", (chunk) => {
        const answer = this.refuse(chunk);
        if (answer === null) upstream.write(chunk);
        else client.write(answer);
      });
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
