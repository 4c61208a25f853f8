import { once } from "node:events";
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../src/server/app.js";
import { ConfigError, type HttpConfig, loadConfig } from "../../src/server/config.js";
import { signedInClient, type TestClient } from "../support/client.js";
import { TEST_ORIGIN } from "../support/config.js";
import { MODES, type ModeEnv, prepareMode } from "../support/modes.js";

/** Short timeouts so the test waits on sockets closing, never on a guess. */
const EDGE: HttpConfig = {
  requestTimeoutMs: 400,
  idleTimeoutMs: 700,
  keepAliveTimeoutMs: 300,
  maxConnections: 1000,
};

interface RawResult {
  text: string;
  closedAfterMs: number;
}

/** Opens a raw connection, runs `drive` on it, resolves when the server closes it. */
async function rawConnection(port: number, drive: (socket: net.Socket) => void): Promise<RawResult> {
  const socket = net.connect(port, "127.0.0.1");
  await once(socket, "connect");
  const started = Date.now();
  let text = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk) => (text += chunk));
  socket.on("error", () => {});
  drive(socket);
  await once(socket, "close");
  return { text, closedAfterMs: Date.now() - started };
}

function problemOf(text: string) {
  const [head, body] = text.split("\r\n\r\n");
  return { head: head ?? "", body: JSON.parse(body ?? "null") };
}

describe.each(MODES)("network edge: timeouts and connection cap (%s)", (modeName) => {
  let mode: ModeEnv;
  let built: BuiltApp;
  let port: number;
  let user: TestClient;

  beforeAll(async () => {
    mode = await prepareMode(modeName);
    built = await mode.start({ http: EDGE, rateLimitEnabled: false });
    await built.app.listen({ port: 0, host: "127.0.0.1" });
    port = (built.app.server.address() as net.AddressInfo).port;
    user = await signedInClient(built.app, "Edge");
  });
  afterAll(() => mode.teardown());

  it("cuts off a slow-loris body and slow headers with 408 problem+json; an SSE stream outlives every timeout", async () => {
    // The stream opens first, so every timeout below runs out while it is open.
    const events: string[] = [];
    const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get(`http://127.0.0.1:${port}/api/realtime`, { headers: { cookie: user.cookie! } }, resolve)
        .on("error", reject);
    });
    expect(stream.statusCode).toBe(200);
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => events.push(chunk));
    let streamClosed = false;
    stream.on("close", () => (streamClosed = true));

    const trickles: NodeJS.Timeout[] = [];
    const trickle = (socket: net.Socket, byte: string) => {
      // One byte every 50 ms: never idle long enough for the idle timeout, never complete.
      const timer = setInterval(() => socket.writable && socket.write(byte), 50);
      trickles.push(timer);
      socket.on("close", () => clearInterval(timer));
    };

    const [slowBody, slowHeaders, silent, keptAlive] = await Promise.all([
      rawConnection(port, (socket) => {
        socket.write(
          "POST /api/dashboards HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
            `Cookie: ${user.cookie}\r\nOrigin: ${TEST_ORIGIN}\r\n` +
            "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n" +
            '{"name":"',
        );
        trickle(socket, "a");
      }),
      rawConnection(port, (socket) => {
        socket.write("GET /api/dashboards HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
        trickle(socket, "b");
      }),
      // Connects and sends nothing at all.
      rawConnection(port, () => {}),
      // One complete request, then the connection stays idle: the keep-alive timeout closes it.
      rawConnection(port, (socket) => socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")),
    ]);
    for (const timer of trickles) clearInterval(timer);

    for (const [label, result] of [
      ["slow body", slowBody],
      ["slow headers", slowHeaders],
    ] as const) {
      const { head, body } = problemOf(result.text);
      expect(head, label).toMatch(/^HTTP\/1\.1 408 /);
      expect(head.toLowerCase(), label).toContain("content-type: application/problem+json");
      // Answered by Node's clientError path, before any hook: the security headers all the same.
      expect(head.toLowerCase(), label).toContain("x-content-type-options: nosniff");
      expect(head.toLowerCase(), label).toContain("x-frame-options: deny");
      expect(head.toLowerCase(), label).toMatch(/content-security-policy: [^\r\n]*frame-ancestors 'none'/);
      expect(body, label).toMatchObject({ status: 408, code: "request_timeout" });
      // Cut at the deadline (checked every 100 ms here), not whenever the client gives up.
      expect(result.closedAfterMs, label).toBeGreaterThanOrEqual(EDGE.requestTimeoutMs - 50);
      // Generous upper bound for a loaded machine; without the timeout the connection is never cut.
      expect(result.closedAfterMs, label).toBeLessThan(EDGE.requestTimeoutMs + 3000);
    }
    // Sending nothing is a request whose headers never arrive: cut by the same deadline, or idle.
    expect(silent.text === "" || silent.text.startsWith("HTTP/1.1 408 ")).toBe(true);
    expect(silent.closedAfterMs).toBeLessThan(EDGE.idleTimeoutMs + 3000);
    expect(keptAlive.text).toMatch(/^HTTP\/1\.1 200 /);
    // Node adds a 1 s buffer to the keep-alive timeout of the socket.
    expect(keptAlive.closedAfterMs).toBeLessThan(EDGE.keepAliveTimeoutMs + 4000);
    console.log(
      `[edge ${modeName}] closed after: slow body ${slowBody.closedAfterMs} ms, slow headers ${slowHeaders.closedAfterMs} ms, ` +
        `silent ${silent.closedAfterMs} ms, idle keep-alive ${keptAlive.closedAfterMs} ms ` +
        `(request timeout ${EDGE.requestTimeoutMs}, idle ${EDGE.idleTimeoutMs}, keep-alive ${EDGE.keepAliveTimeoutMs})`,
    );
    // The slow body was never handed to the route.
    expect((await user.get("/api/dashboards")).body).toEqual([]);

    // Every timeout has run out since the stream opened; it is still open and delivers.
    expect(streamClosed).toBe(false);
    const arrived = new Promise<void>((resolve) =>
      stream.on("data", (chunk: string) => chunk.includes("after-the-timeouts") && resolve()),
    );
    const created = await user.post("/api/notifications", { type: "message", message: "after-the-timeouts" });
    expect(created.status).toBe(201);
    await arrived;
    expect(events.join("")).toContain(`id: ${created.body.id}`);
    stream.destroy();
  });

  it("refuses connections beyond HTTP_MAX_CONNECTIONS at once", async () => {
    const capped = await mode.start({
      http: { ...EDGE, idleTimeoutMs: 60_000, keepAliveTimeoutMs: 60_000, maxConnections: 3 },
    });
    await capped.app.listen({ port: 0, host: "127.0.0.1" });
    const cappedPort = (capped.app.server.address() as net.AddressInfo).port;
    const agents = Array.from({ length: 3 }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
    const get = (agent: http.Agent | false) =>
      new Promise<number | string>((resolve) => {
        http
          .get(`http://127.0.0.1:${cappedPort}/healthz`, { agent }, (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode!));
          })
          .on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      });
    try {
      // Three connections held open (keep-alive), each answered.
      expect(await Promise.all(agents.map(get))).toEqual([200, 200, 200]);
      // The fourth is closed by the server without an answer.
      const refused = await get(false);
      expect(typeof refused).toBe("string");
      expect(
        await new Promise<number>((resolve) => capped.app.server.getConnections((_e, n) => resolve(n))),
      ).toBe(3);
    } finally {
      for (const agent of agents) agent.destroy();
      await capped.close();
    }
  });
});

describe("edge and shutdown settings", () => {
  const env = { DATA_DIR: "/tmp/tessera-config-test" };

  it("reads them from the environment, in seconds", () => {
    const config = loadConfig({
      ...env,
      HTTP_REQUEST_TIMEOUT_SECONDS: "12",
      HTTP_IDLE_TIMEOUT_SECONDS: "90",
      HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "65",
      HTTP_MAX_CONNECTIONS: "500",
      SHUTDOWN_GRACE_SECONDS: "0",
      SHUTDOWN_TIMEOUT_SECONDS: "3",
    });
    expect(config.http).toEqual({
      requestTimeoutMs: 12_000,
      idleTimeoutMs: 90_000,
      keepAliveTimeoutMs: 65_000,
      maxConnections: 500,
    });
    expect(config.shutdown).toEqual({ graceMs: 0, timeoutMs: 3000 });
  });

  it("stops on a bad value with the variable's name", () => {
    for (const variable of [
      "HTTP_REQUEST_TIMEOUT_SECONDS",
      "HTTP_IDLE_TIMEOUT_SECONDS",
      "HTTP_KEEP_ALIVE_TIMEOUT_SECONDS",
      "HTTP_MAX_CONNECTIONS",
      "SHUTDOWN_TIMEOUT_SECONDS",
    ]) {
      for (const value of ["0", "ten", "-1"]) {
        expect(() => loadConfig({ ...env, [variable]: value }), `${variable}=${value}`).toThrow(ConfigError);
      }
    }
  });
});
