// Entry of the thread that owns the embedded database (see ./client.ts): PGlite's WASM engine runs
// here, so a query never holds up the server's event loop.
import { parentPort, workerData } from "node:worker_threads";
import { type EngineOptions, openEngine } from "./engine.js";
import { createHost } from "./host.js";
import { type Envelope, type Reply, serializeError } from "./protocol.js";

const port = parentPort!;
const opening = openEngine(workerData as EngineOptions).then(createHost);
// Listening before the engine is open, not after: a thread whose event loop has nothing to wait
// on stops to drain V8's background tasks, and right after PGlite starts those are V8 optimising
// the engine's code, which held the first request up by 100-200 ms on every restart. Requests
// that arrive early wait for the engine, in the order they came.
port.on("message", ({ id, request }: Envelope) => {
  opening
    .then((host) => host.handle(request))
    .then(
      (result) => port.postMessage({ id, ok: true, result } satisfies Reply),
      (error) => port.postMessage({ id, ok: false, error: serializeError(error) } satisfies Reply),
    );
});
opening.then(
  () => port.postMessage({ ready: true }),
  (error) => port.postMessage({ ready: false, error: serializeError(error) }),
);
