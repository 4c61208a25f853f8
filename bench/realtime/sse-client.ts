import http from "node:http";

export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/**
 * A small Server-Sent Events client over node:http (one socket per stream, like a browser tab),
 * used by the realtime tests and the benchmark. It keeps every event and comment it reads.
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  retry: number | null = null;
  /** Resolves when the server ends the stream or the connection drops. */
  readonly closed: Promise<void>;
  onEvent: ((event: SseEvent) => void) | null = null;

  private buffer = "";
  private fields: { id?: string; event?: string; data: string[] } = { data: [] };
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly req: http.ClientRequest,
    readonly res: http.IncomingMessage,
  ) {
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => this.feed(chunk));
    this.closed = new Promise((resolve) => res.once("close", resolve));
    this.closed.then(() => this.wake());
  }

  get status() {
    return this.res.statusCode ?? 0;
  }

  get ended() {
    return this.res.closed;
  }

  /** Opens a stream; resolves once the response headers arrive, whatever the status. */
  static open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = http.get(url, { headers: { accept: "text/event-stream", ...headers }, agent: false });
      req.once("response", (res) => resolve(new SseClient(req, res)));
      req.once("error", reject);
    });
  }

  /** Waits until at least `count` events arrived; rejects after `timeoutMs`. */
  async waitForEvents(count: number, timeoutMs = 2000): Promise<SseEvent[]> {
    await this.until(() => this.events.length >= count, timeoutMs, `${count} events`);
    return this.events;
  }

  /** Waits until `predicate` holds, checked after each chunk read; rejects after `timeoutMs`. */
  async until(predicate: () => boolean, timeoutMs: number, what = "condition"): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(
          `timed out after ${timeoutMs} ms waiting for ${what}; got ${this.events.length} events`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (this.ended && !predicate()) throw new Error(`stream closed while waiting for ${what}`);
    }
  }

  close() {
    this.req.destroy();
  }

  private wake() {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  private feed(chunk: string) {
    this.buffer += chunk;
    let newline = this.buffer.search(/\r\n|\r|\n/);
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline);
      const width = this.buffer.startsWith("\r\n", newline) ? 2 : 1;
      this.buffer = this.buffer.slice(newline + width);
      this.line(line);
      newline = this.buffer.search(/\r\n|\r|\n/);
    }
    this.wake();
  }

  private line(line: string) {
    if (line === "") {
      if (this.fields.data.length > 0) {
        const event: SseEvent = {
          id: this.fields.id,
          event: this.fields.event ?? "message",
          data: this.fields.data.join("\n"),
        };
        this.events.push(event);
        this.onEvent?.(event);
      }
      this.fields = { data: [] };
      return;
    }
    if (line.startsWith(":")) {
      this.comments.push(line.slice(1).trim());
      return;
    }
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "data") this.fields.data.push(value);
    else if (name === "event") this.fields.event = value;
    else if (name === "id") this.fields.id = value;
    else if (name === "retry" && /^\d+$/.test(value)) this.retry = Number(value);
  }
}
