// Entry of the thread that owns the embedded database (see ./client.ts): PGlite's WASM engine runs
// here, so a query never holds up the server's event loop.
import { parentPort, workerData } from "node:worker_threads";
import { type EngineOptions, openEngine } from "./engine.js";
import { createHost } from "./host.js";
import { type Envelope, type Reply, serializeError } from "./protocol.js";

const port = parentPort!;
try {
  const host = createHost(await openEngine(workerData as EngineOptions));
  port.on("message", ({ id, request }: Envelope) => {
    host.handle(request).then(
      (result) => port.postMessage({ id, ok: true, result } satisfies Reply),
      (error) => port.postMessage({ id, ok: false, error: serializeError(error) } satisfies Reply),
    );
  });
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ ready: false, error: serializeError(error) });
}
