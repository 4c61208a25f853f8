import type { Server } from "node:http";
import { Server as NetServer, type Socket } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyInstance } from "fastify";
import { shuttingDown } from "./errors.js";

/**
 * Where the instance is in its life, and what an operator should know about it:
 * - serving: the normal state.
 * - draining (after SIGTERM, for SHUTDOWN_GRACE_SECONDS): /readyz answers 503 so load balancers
 *   stop sending work here, while every request is still served; each answer carries
 *   `Connection: close`, so keep-alive clients move to a fresh connection (and to another instance)
 *   instead of having an idle connection closed under a request they are about to send.
 * - closing: the server stops accepting connections; late requests on connections still open get
 *   503 + `Connection: close`, the realtime streams end, and the server closes once the requests
 *   in flight have answered.
 */
export type Phase = "serving" | "draining" | "closing";

export class ServerState {
  phase: Phase = "serving";
  private readonly notes = new Map<string, string>();
  /** Accepted connections that have not delivered a request yet: their request may be on its way. */
  private readonly fresh = new Set<Socket>();
  private onNoneFresh: (() => void) | null = null;
  private lastConnectionAt = 0;

  /** A condition the operator should fix (shown in /readyz, logged once by whoever sets it). */
  warn(source: string, message: string) {
    this.notes.set(source, message);
  }

  clear(source: string) {
    this.notes.delete(source);
  }

  get warnings(): string[] {
    return [...this.notes.values()];
  }

  /** The root hooks that make each phase visible to clients; installed before any route. */
  install(app: FastifyInstance) {
    app.server.on("connection", (socket: Socket) => {
      this.lastConnectionAt = Date.now();
      this.fresh.add(socket);
      socket.once("close", () => this.delivered(socket));
    });
    app.server.on("request", (request: { socket: Socket }) => this.delivered(request.socket));
    // Callback-style hooks: they run on every request and wait for nothing, and an async hook
    // costs every request a promise and its microtasks.
    app.addHook("onRequest", (_request, _reply, done) => {
      done(this.phase === "closing" ? shuttingDown() : undefined);
    });
    app.addHook("onSend", (_request, reply, _payload, done) => {
      if (this.phase !== "serving") reply.header("connection", "close");
      done();
    });
  }

  /**
   * Stops accepting connections without resetting a request a client already sent:
   * 1. keeps listening, answering 503, until no connection has arrived for `quietMs`: closing the
   *    listening socket resets every connection still in the kernel's accept queue;
   * 2. then closes it without closing idle connections yet (Node's http close() would): a
   *    connection accepted a moment ago is "idle" until its request has been read;
   * 3. waits until each of those has delivered its request (answered 503) or closed;
   * 4. closes those that have not sent a single byte by then: clients open spare connections
   *    ahead of need (undici does after an aborted fetch()), and one that never sends a request
   *    would hold the server's close until the shutdown timeout cut it (exit 1 after 17 s, issue
   *    36). A connection that has sent part of a request is left to finish it: on a loaded
   *    machine its parse can lag, and destroying it reset a request the client had sent (CI).
   * Each wait is bounded by `maxWaitMs` on its own, so a long first wait does not shorten the
   * second.
   */
  async stopAccepting(server: Server, { quietMs = 100, maxWaitMs = 2000 } = {}) {
    if (!server.listening) return;
    const quietDeadline = Date.now() + maxWaitMs;
    // Timers run before the loop's I/O phase: after a stalled turn (a loaded machine), the
    // connections waiting to be accepted are only seen once that phase has run.
    const acceptPending = () => new Promise((resolve) => setImmediate(resolve));
    await acceptPending();
    for (
      let quietFor = Date.now() - this.lastConnectionAt;
      quietFor < quietMs && Date.now() < quietDeadline;
    ) {
      await delay(quietMs - quietFor);
      await acceptPending();
      quietFor = Date.now() - this.lastConnectionAt;
    }
    NetServer.prototype.close.call(server);
    if (this.fresh.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.onNoneFresh = resolve;
      timer = setTimeout(resolve, maxWaitMs);
    });
    clearTimeout(timer);
    this.onNoneFresh = null;
    for (const socket of this.fresh) if (socket.bytesRead === 0) socket.destroy();
  }

  private delivered(socket: Socket) {
    if (this.fresh.delete(socket) && this.fresh.size === 0) this.onNoneFresh?.();
  }
}
