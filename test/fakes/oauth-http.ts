import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { registerSecret } from "../support/secrets.js";

/**
 * Infrastructure for the provider fakes: honest HTTP servers on 127.0.0.1 that record what we
 * send, check bearer tokens against what their token endpoint issued, and can be told to fail
 * or hang. Real provider shapes live in google.ts, github.ts, notion.ts and weather.ts.
 */

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: string;
  json<T = any>(): T;
  form(): URLSearchParams;
}

export interface FakeAnswer {
  status?: number;
  json?: unknown;
  text?: string;
  /** A binary body (an image), sent as it is. */
  bytes?: Buffer;
  headers?: Record<string, string>;
}

export type FakeHandler = (req: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

export interface Fault {
  status?: number;
  /** Never answer (until the server closes): exercises our timeouts. */
  hang?: boolean;
  /** Answer this instead (a body of the wrong shape, or not JSON at all). */
  answer?: FakeAnswer;
}

export class FakeServer {
  readonly requests: FakeRequest[] = [];
  private readonly faults: Fault[] = [];
  private readonly hanging = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(handler: FakeHandler): Promise<FakeServer> {
    let fake: FakeServer;
    const server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const body = Buffer.concat(chunks).toString("utf8");
      const request: FakeRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        json: () => JSON.parse(body),
        form: () => new URLSearchParams(body),
      };
      fake.requests.push(request);
      const fault = fake.faults.shift();
      if (fault?.hang) {
        fake.hanging.add(res);
        return;
      }
      let answer: FakeAnswer;
      try {
        answer = fault?.answer
          ? fault.answer
          : fault?.status
            ? { status: fault.status, json: { error: "injected" } }
            : await handler(request);
      } catch (error) {
        answer = { status: 500, json: { error: String(error) } };
      }
      res.writeHead(answer.status ?? 200, {
        "content-type": answer.text !== undefined ? "text/plain" : "application/json",
        ...answer.headers,
      });
      res.end(answer.bytes ?? answer.text ?? (answer.json === undefined ? "" : JSON.stringify(answer.json)));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    fake = new FakeServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return fake;
  }

  /** The next requests (one per fault) fail as described, in order. */
  fail(...faults: Fault[]) {
    this.faults.push(...faults);
  }

  clearFaults() {
    this.faults.length = 0;
  }

  /** Requests whose path starts with the prefix. */
  calls(prefix = "/") {
    return this.requests.filter((r) => r.path.startsWith(prefix));
  }

  async close() {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export const randomToken = (label: string) => {
  const token = `${label}-${randomBytes(18).toString("base64url")}`;
  registerSecret(token);
  return token;
};

/**
 * An OAuth token endpoint for refreshes, with the client it trusts. It rotates both tokens on
 * every refresh, so a test can tell whether we stored the new ones.
 */
export class TokenAuthority {
  readonly clientId = randomToken("client-id");
  readonly clientSecret = randomToken("client-secret");
  readonly access = new Set<string>();
  readonly refresh = new Set<string>();
  refreshCount = 0;
  /** When set, refreshes answer 400 invalid_grant. */
  refuse = false;
  lastIssued: { accessToken: string; refreshToken: string } | null = null;

  constructor(
    readonly label: string,
    readonly clientAuth: "post" | "basic",
  ) {}

  issue() {
    const tokens = {
      accessToken: randomToken(`${this.label}-at`),
      refreshToken: randomToken(`${this.label}-rt`),
    };
    this.access.add(tokens.accessToken);
    this.refresh.add(tokens.refreshToken);
    this.lastIssued = tokens;
    return tokens;
  }

  /** True when the request carries an access token this authority issued and has not revoked. */
  authorized(req: FakeRequest) {
    const header = req.headers.authorization ?? "";
    return header.startsWith("Bearer ") && this.access.has(header.slice(7));
  }

  revokeAccess() {
    this.access.clear();
  }

  private clientOk(req: FakeRequest, form: URLSearchParams) {
    if (this.clientAuth === "basic") {
      const expected = `Basic ${Buffer.from(`${this.clientId}:${this.clientSecret}`).toString("base64")}`;
      return req.headers.authorization === expected && !form.has("client_secret");
    }
    return form.get("client_id") === this.clientId && form.get("client_secret") === this.clientSecret;
  }

  /** The token endpoint: `grant_type=refresh_token` only. */
  handle(req: FakeRequest): FakeAnswer {
    const form = req.form();
    if (
      req.method !== "POST" ||
      !String(req.headers["content-type"]).startsWith("application/x-www-form-urlencoded")
    ) {
      return { status: 400, json: { error: "invalid_request" } };
    }
    if (!this.clientOk(req, form)) return { status: 401, json: { error: "invalid_client" } };
    if (form.get("grant_type") !== "refresh_token")
      return { status: 400, json: { error: "unsupported_grant_type" } };
    const presented = form.get("refresh_token") ?? "";
    if (this.refuse || !this.refresh.has(presented)) return { status: 400, json: { error: "invalid_grant" } };
    this.refreshCount++;
    this.refresh.delete(presented);
    const next = this.issue();
    return {
      json: {
        access_token: next.accessToken,
        refresh_token: next.refreshToken,
        expires_in: 3600,
        token_type: "Bearer",
        scope: "read",
      },
    };
  }
}

export type TokenCheck = (token: string) => Promise<boolean>;

/**
 * A provider API fake: it serves its own `/token` endpoint, and accepts API calls only with a
 * bearer token its issuer knows: the built-in authority's, or a real OAuth server's when `check`
 * is given (the end-to-end connect flow).
 */
export abstract class ProviderFake {
  server!: FakeServer;

  constructor(
    readonly authority: TokenAuthority,
    private readonly check: TokenCheck = async (token) => authority.access.has(token),
  ) {}

  get url() {
    return this.server.url;
  }

  /** Starts listening on 127.0.0.1. */
  async listen(): Promise<this> {
    this.server = await FakeServer.start((req) =>
      req.path === "/token" ? this.authority.handle(req) : this.handleApi(req),
    );
    return this;
  }

  /** True when the request carries a bearer token the issuer accepts. */
  protected async authorized(req: FakeRequest): Promise<boolean> {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    return bearer !== undefined && (await this.check(bearer));
  }

  protected abstract handleApi(req: FakeRequest): FakeAnswer | Promise<FakeAnswer>;
}
