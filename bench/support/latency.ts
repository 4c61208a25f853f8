// Requests timed one after another on one keep-alive connection, as a browser tab sends them.
import { Client } from "undici";

/** Milliseconds a task took. */
export async function timed(task: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await task();
  return performance.now() - started;
}

/** One GET on the client's connection, its whole body read; throws unless it answered 200. */
export async function timedGet(client: Client, path: string, cookie: string): Promise<number> {
  const started = performance.now();
  const res = await client.request({ path, method: "GET", headers: { cookie } });
  await res.body.arrayBuffer();
  if (res.statusCode !== 200) throw new Error(`GET ${path}: ${res.statusCode}`);
  return performance.now() - started;
}

/**
 * Runs `work` while a loop reads `path` one request after another on a connection opened (and
 * used once) beforehand; returns what `work` returned and each read's milliseconds.
 */
export async function readsDuring<T>(
  base: string,
  path: string,
  cookie: string,
  work: () => Promise<T>,
): Promise<{ result: T; reads: number[] }> {
  const client = new Client(base);
  try {
    await timedGet(client, path, cookie);
    const reads: number[] = [];
    let done = false;
    const reading = (async () => {
      while (!done) reads.push(await timedGet(client, path, cookie));
    })();
    // A failed read is thrown below, once `work` has settled; not an unhandled rejection before.
    reading.catch(() => {});
    const result = await work().finally(() => {
      done = true;
    });
    await reading;
    return { result, reads };
  } finally {
    await client.close();
  }
}
